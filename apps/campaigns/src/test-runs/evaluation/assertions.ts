import { TestAssertion, TestTranscriptLineDto, TestTranscriptRole } from '@vap/api';
import { regexKeywordPath } from '@vap/messages';

/** What a test attempt observed of its call: the session as the calls service recorded it, and the caller's ear. */
export interface ObservedCall {
  /** The lines, each agent line with the model that wrote it where the record says. */
  transcript: TestTranscriptLineDto[];
  toolCalls: { name: string; arguments: Record<string, unknown>; outcome: string }[];
  endReason: string | null;
  /** Extracted values (post-call extraction); {} when none ran. */
  extraction: Record<string, unknown>;
  /** The session's variables at its end (pre-call ones and those functions set). */
  variables: Record<string, unknown>;
  /** Each agent reply's latency as the test caller measured it (end of its line to the agent's first sound), ms. */
  measuredLatenciesMs: number[];
}

export interface Verdict {
  kind: TestAssertion['kind'];
  passed: boolean;
  detail: string;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Text as compared: lower case, runs of whitespace and punctuation as one space. */
export function normalizeText(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === 'number' && typeof b === 'number') return a === b;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => deepEqual(a[k], b[k]));
  }
  return false;
}

function typeOk(type: unknown, value: unknown): boolean {
  switch (type) {
    case 'object':
      return isObject(value);
    case 'array':
      return Array.isArray(value);
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    default:
      return true;
  }
}

/** Where `value` breaks `schema` (the subset of JSON Schema a scenario may use), or null when it satisfies it. */
export function schemaViolation(
  schema: Record<string, unknown>,
  value: unknown,
  path = 'arguments',
): string | null {
  if (schema.type !== undefined && !typeOk(schema.type, value))
    return `${path} is not of type ${String(schema.type)}`;
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => deepEqual(e, value)))
    return `${path} is not one of ${JSON.stringify(schema.enum)}`;
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum)
      return `${path} is below ${schema.minimum}`;
    if (typeof schema.maximum === 'number' && value > schema.maximum)
      return `${path} is above ${schema.maximum}`;
  }
  if (isObject(value)) {
    if (Array.isArray(schema.required)) {
      const missing = (schema.required as string[]).find((key) => value[key] === undefined);
      if (missing !== undefined) return `${path}.${missing} is missing`;
    }
    if (isObject(schema.properties)) {
      for (const [key, sub] of Object.entries(schema.properties)) {
        if (value[key] === undefined || !isObject(sub)) continue;
        const broken = schemaViolation(sub, value[key], `${path}.${key}`);
        if (broken) return broken;
      }
    }
  }
  if (Array.isArray(value) && isObject(schema.items)) {
    for (let i = 0; i < value.length; i++) {
      const broken = schemaViolation(schema.items, value[i], `${path}[${i}]`);
      if (broken) return broken;
    }
  }
  return null;
}

const clip = (text: string, max = 300) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

function linesOf(call: ObservedCall, role: TestTranscriptRole | undefined): string[] {
  return call.transcript.filter((l) => !role || role === 'any' || l.role === role).map((l) => l.text);
}

const whose = (role: TestTranscriptRole | undefined) =>
  !role || role === 'any' ? 'the transcript' : `the ${role}'s lines`;

/** One assertion against the observed call. */
export function evaluateAssertion(assertion: TestAssertion, call: ObservedCall): Verdict {
  const verdict = (passed: boolean, detail: string): Verdict => ({
    kind: assertion.kind,
    passed,
    detail: clip(detail, 1000),
  });
  switch (assertion.kind) {
    case 'tool_called': {
      const calls = call.toolCalls.filter((c) => c.name === assertion.tool);
      if (!calls.length) {
        const called = [...new Set(call.toolCalls.map((c) => c.name))];
        return verdict(
          false,
          `${assertion.tool} was never called` +
            (called.length ? ` (called: ${called.join(', ')})` : ' (no tool was called)'),
        );
      }
      // A scenario stored before patterns were refused keeps its pattern: it fails, and is never run.
      const regex =
        assertion.arguments_schema && regexKeywordPath(assertion.arguments_schema, 'arguments_schema');
      if (regex)
        return verdict(
          false,
          `${regex} is a regular expression, which scenarios no longer accept: edit the scenario`,
        );
      const problems: string[] = [];
      for (const c of calls) {
        const wrong = Object.entries(assertion.arguments ?? {}).find(
          ([k, v]) => !deepEqual(c.arguments[k], v),
        );
        const broken = assertion.arguments_schema
          ? schemaViolation(assertion.arguments_schema, c.arguments)
          : null;
        if (!wrong && !broken)
          return verdict(true, `${assertion.tool} was called with ${clip(JSON.stringify(c.arguments))}`);
        problems.push(
          wrong
            ? `${wrong[0]} was ${JSON.stringify(c.arguments[wrong[0]]) ?? 'absent'}, expected ${JSON.stringify(wrong[1])}`
            : (broken as string),
        );
      }
      return verdict(
        false,
        `${assertion.tool} was called ${calls.length} time(s), never as expected: ${problems.join('; ')}`,
      );
    }
    case 'tool_not_called': {
      const count = call.toolCalls.filter((c) => c.name === assertion.tool).length;
      return count
        ? verdict(false, `${assertion.tool} was called ${count} time(s)`)
        : verdict(true, `${assertion.tool} was not called`);
    }
    case 'transcript_contains':
    case 'transcript_not_contains': {
      const wanted = normalizeText(assertion.text);
      const line = linesOf(call, assertion.role).find((l) => normalizeText(l).includes(wanted));
      const where = whose(assertion.role);
      if (assertion.kind === 'transcript_contains')
        return line !== undefined
          ? verdict(true, `"${assertion.text}" is in ${where}: "${clip(line)}"`)
          : verdict(false, `"${assertion.text}" is not in ${where}`);
      return line !== undefined
        ? verdict(false, `"${assertion.text}" was said: "${clip(line)}"`)
        : verdict(true, `"${assertion.text}" is not in ${where}`);
    }
    case 'end_reason':
      return call.endReason === assertion.equals
        ? verdict(true, `the session ended with ${assertion.equals}`)
        : verdict(
            false,
            `the session ended with ${call.endReason ?? 'no end reason'}, expected ${assertion.equals}`,
          );
    case 'extraction': {
      const source = assertion.key in call.extraction ? 'extraction' : 'variables';
      const value = source === 'extraction' ? call.extraction[assertion.key] : call.variables[assertion.key];
      return deepEqual(value, assertion.equals)
        ? verdict(true, `${assertion.key} is ${JSON.stringify(value)}`)
        : verdict(
            false,
            `${assertion.key} is ${value === undefined ? 'absent' : JSON.stringify(value)}, expected ${JSON.stringify(assertion.equals)}`,
          );
    }
    case 'latency': {
      const recorded = call.transcript
        .filter((l) => l.role === 'agent' && l.latency_ms !== null)
        .map((l) => l.latency_ms as number);
      const latencies = recorded.length ? recorded : call.measuredLatenciesMs;
      const source = recorded.length ? 'recorded' : 'measured by the test caller';
      if (!latencies.length) return verdict(false, 'no agent reply was timed');
      const worst = Math.max(...latencies);
      return worst <= assertion.max_ms
        ? verdict(true, `every agent reply within ${assertion.max_ms} ms (slowest ${worst} ms, ${source})`)
        : verdict(
            false,
            `${latencies.filter((l) => l > assertion.max_ms).length} of ${latencies.length} agent replies over ${assertion.max_ms} ms (slowest ${worst} ms, ${source})`,
          );
    }
  }
}

export function evaluateAssertions(assertions: TestAssertion[], call: ObservedCall): Verdict[] {
  return assertions.map((a) => evaluateAssertion(a, call));
}
