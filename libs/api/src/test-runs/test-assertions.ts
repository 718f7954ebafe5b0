import { regexKeywordPath } from '@vap/messages';
import { TEST_ASSERTION_TEXT_MAX, TEST_ASSERTIONS_MAX } from './test-limits';

export const TEST_ASSERTION_KINDS = [
  'tool_called',
  'tool_not_called',
  'transcript_contains',
  'transcript_not_contains',
  'end_reason',
  'extraction',
  'latency',
] as const;
export type TestAssertionKind = (typeof TEST_ASSERTION_KINDS)[number];

/** Whose lines a transcript assertion reads. */
export const TEST_TRANSCRIPT_ROLES = ['agent', 'caller', 'any'] as const;
export type TestTranscriptRole = (typeof TEST_TRANSCRIPT_ROLES)[number];

/** What must hold after a scenario's call, one kind at a time (the fields each kind takes are in FIELDS). */
export type TestAssertion =
  | {
      kind: 'tool_called';
      tool: string;
      /** Each key must have this value in at least one call of the tool (deep equality). */
      arguments?: Record<string, unknown>;
      /** A JSON Schema subset the arguments of at least one call must satisfy. */
      arguments_schema?: Record<string, unknown>;
    }
  | { kind: 'tool_not_called'; tool: string }
  | { kind: 'transcript_contains'; text: string; role?: TestTranscriptRole }
  | { kind: 'transcript_not_contains'; text: string; role?: TestTranscriptRole }
  | { kind: 'end_reason'; equals: string }
  | { kind: 'extraction'; key: string; equals: unknown }
  | { kind: 'latency'; max_ms: number };

const FIELDS: Record<TestAssertionKind, { required: string[]; optional: string[] }> = {
  tool_called: { required: ['tool'], optional: ['arguments', 'arguments_schema'] },
  tool_not_called: { required: ['tool'], optional: [] },
  transcript_contains: { required: ['text'], optional: ['role'] },
  transcript_not_contains: { required: ['text'], optional: ['role'] },
  end_reason: { required: ['equals'], optional: [] },
  extraction: { required: ['key', 'equals'], optional: [] },
  latency: { required: ['max_ms'], optional: [] },
};

/**
 * The JSON Schema keywords arguments_schema may use (what evaluateSchema understands). No `pattern`: a partner's
 * regular expression would run on the campaigns service's one thread (`regexKeywordPath` refuses it anywhere).
 */
export const SCHEMA_KEYWORDS = ['type', 'required', 'properties', 'enum', 'minimum', 'maximum', 'items'];
const SCHEMA_TYPES = ['object', 'array', 'string', 'number', 'integer', 'boolean', 'null'];
const SCHEMA_MAX_BYTES = 4096;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function shortText(value: unknown, max = TEST_ASSERTION_TEXT_MAX): boolean {
  return typeof value === 'string' && value.trim().length > 0 && value.length <= max;
}

/** Problems of a schema (the subset SCHEMA_KEYWORDS), each naming its path. */
function schemaProblems(schema: unknown, path: string): string[] {
  if (!isObject(schema)) return [`${path} must be an object (a JSON Schema)`];
  const out: string[] = [];
  for (const key of Object.keys(schema)) {
    if (!SCHEMA_KEYWORDS.includes(key))
      out.push(`${path}.${key} is not supported (use ${SCHEMA_KEYWORDS.join(', ')})`);
  }
  if (schema.type !== undefined && !SCHEMA_TYPES.includes(schema.type as string))
    out.push(`${path}.type must be one of ${SCHEMA_TYPES.join(', ')}`);
  if (
    schema.required !== undefined &&
    !(Array.isArray(schema.required) && schema.required.every((r) => typeof r === 'string'))
  )
    out.push(`${path}.required must be an array of property names`);
  if (schema.enum !== undefined && !(Array.isArray(schema.enum) && schema.enum.length > 0))
    out.push(`${path}.enum must be a non-empty array`);
  for (const bound of ['minimum', 'maximum'] as const) {
    if (schema[bound] !== undefined && !(typeof schema[bound] === 'number' && Number.isFinite(schema[bound])))
      out.push(`${path}.${bound} must be a number`);
  }
  if (schema.properties !== undefined) {
    if (!isObject(schema.properties)) out.push(`${path}.properties must be an object of schemas`);
    else
      for (const [name, sub] of Object.entries(schema.properties))
        out.push(...schemaProblems(sub, `${path}.properties.${name}`));
  }
  if (schema.items !== undefined) out.push(...schemaProblems(schema.items, `${path}.items`));
  return out;
}

/** Problems of one assertion, each naming its field as `assertions[i].field`; [] when it is valid. */
export function assertionProblems(value: unknown, index: number): string[] {
  const at = `assertions[${index}]`;
  if (!isObject(value)) return [`${at} must be an object with a kind`];
  const kind = value.kind as TestAssertionKind;
  if (!TEST_ASSERTION_KINDS.includes(kind))
    return [`${at}.kind must be one of ${TEST_ASSERTION_KINDS.join(', ')}`];
  const fields = FIELDS[kind];
  const out: string[] = [];
  for (const key of Object.keys(value)) {
    if (key !== 'kind' && !fields.required.includes(key) && !fields.optional.includes(key))
      out.push(`${at}.${key} is not a field of a ${kind} assertion`);
  }
  for (const key of fields.required) if (value[key] === undefined) out.push(`${at}.${key} is required`);
  if (value.tool !== undefined && !shortText(value.tool, 100))
    out.push(`${at}.tool must be a tool name of 1 to 100 characters`);
  if (value.text !== undefined && !shortText(value.text))
    out.push(`${at}.text must be a non-empty string of at most ${TEST_ASSERTION_TEXT_MAX} characters`);
  if (value.role !== undefined && !(TEST_TRANSCRIPT_ROLES as readonly unknown[]).includes(value.role))
    out.push(`${at}.role must be one of ${TEST_TRANSCRIPT_ROLES.join(', ')}`);
  if (kind === 'end_reason' && value.equals !== undefined && !shortText(value.equals, 100))
    out.push(`${at}.equals must be an end reason of 1 to 100 characters`);
  if (value.key !== undefined && !shortText(value.key, 100))
    out.push(`${at}.key must be a key of 1 to 100 characters`);
  if (
    value.max_ms !== undefined &&
    !(Number.isInteger(value.max_ms) && (value.max_ms as number) >= 1 && (value.max_ms as number) <= 60_000)
  )
    out.push(`${at}.max_ms must be a whole number of milliseconds from 1 to 60000`);
  if (value.arguments !== undefined && !isObject(value.arguments))
    out.push(`${at}.arguments must be an object of the argument values expected`);
  if (value.arguments_schema !== undefined) {
    const regex = regexKeywordPath(value.arguments_schema, `${at}.arguments_schema`);
    if (regex)
      out.push(
        `${regex}: regular expressions are not accepted in a scenario (use enum, or a transcript assertion)`,
      );
    else out.push(...schemaProblems(value.arguments_schema, `${at}.arguments_schema`));
  }
  for (const key of ['arguments', 'arguments_schema', 'equals'] as const) {
    if (value[key] !== undefined && JSON.stringify(value[key]).length > SCHEMA_MAX_BYTES)
      out.push(`${at}.${key} must be at most ${SCHEMA_MAX_BYTES} bytes as JSON`);
  }
  return out;
}

/** Problems of a scenario's assertions list. */
export function assertionsProblems(value: unknown): string[] {
  if (!Array.isArray(value)) return ['assertions must be an array'];
  if (value.length > TEST_ASSERTIONS_MAX) return [`assertions holds at most ${TEST_ASSERTIONS_MAX} items`];
  return value.flatMap((a, i) => assertionProblems(a, i));
}
