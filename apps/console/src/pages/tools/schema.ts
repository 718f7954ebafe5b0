// A custom function's parameters (a JSON Schema) in the console: the rules the API enforces, checked as the
// person types (the API checks again, and also compiles the schema), and the simple form the form builder edits.

/** The API's limits of `parameters` (docs/custom-functions.md). */
export const PARAMETER_LIMITS = { maxChars: 16_384, maxDepth: 12, maxObjects: 250 } as const;

const REFUSED = new Set([
  'pattern',
  'patternProperties',
  '$async',
  '$id',
  '$anchor',
  '$dynamicAnchor',
  '$dynamicRef',
  '$recursiveAnchor',
  '$recursiveRef',
]);
const NAME_MAPS = new Set([
  'properties',
  '$defs',
  'definitions',
  'dependentSchemas',
  'dependencies',
  'dependentRequired',
]);
const DATA = new Set(['const', 'enum', 'default', 'examples']);
const LOCAL_REF = /^#(\/[^#]*)?$/;
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

function depthOf(value: unknown, limit: number, depth = 0): number {
  if (depth > limit || value === null || typeof value !== 'object') return depth;
  let max = depth;
  for (const child of Object.values(value as object)) {
    max = Math.max(max, depthOf(child, limit, depth + 1));
    if (max > limit) break;
  }
  return max;
}

function resolvePointer(root: unknown, ref: string): unknown {
  let node = root;
  const parts = ref.slice(2).split('/');
  if (ref === '#' || ref === '#/') return root;
  for (const raw of parts) {
    let part: string;
    try {
      part = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined;
    }
    if (Array.isArray(node) && /^(0|[1-9][0-9]*)$/.test(part)) node = node[Number(part)];
    else if (isObject(node) && Object.prototype.hasOwnProperty.call(node, part)) node = node[part];
    else return undefined;
  }
  return node;
}

/** What breaks the API's rules in a schema walked whole (refused keywords, $refs, size), or null. */
function ruleProblem(root: Record<string, unknown>): string | null {
  let objects = 0;
  const expanded = new Map<string, number>();
  const counting = new Set<string>();
  const tooLarge = () =>
    `The schema may hold at most ${PARAMETER_LIMITS.maxObjects} objects, its $refs expanded.`;
  const visit = (node: unknown, names: boolean, path: string): string | null => {
    if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) {
        const p = visit(item, false, `${path}[${i}]`);
        if (p) return p;
      }
      return null;
    }
    if (!isObject(node)) return null;
    if (++objects > PARAMETER_LIMITS.maxObjects) return tooLarge();
    for (const [key, child] of Object.entries(node)) {
      if (!names && REFUSED.has(key))
        return key === 'pattern' || key === 'patternProperties'
          ? `“${key}” is not accepted (at ${path || 'the top'}): the platform runs no regular expressions of yours. Describe the format in “description” instead.`
          : `“${key}” is not accepted (at ${path || 'the top'}).`;
      if (!names && DATA.has(key)) continue;
      if (!names && key === 'type') {
        const types = Array.isArray(child) ? child : [child];
        const bad = types.find((t) => typeof t !== 'string' || !TYPES.has(t));
        if (bad !== undefined)
          return `“type” ${JSON.stringify(bad)} (at ${path || 'the top'}) is not a JSON Schema type: use string, number, integer, boolean, object, array or null.`;
      }
      if (!names && key === 'required') {
        if (!Array.isArray(child) || child.some((r) => typeof r !== 'string'))
          return `“required” (at ${path || 'the top'}) must be a list of property names.`;
      }
      if (!names && key === '$ref') {
        const p = followRef(child);
        if (p) return p;
        continue;
      }
      const p = visit(child, !names && NAME_MAPS.has(key) && isObject(child), path ? `${path}.${key}` : key);
      if (p) return p;
    }
    return null;
  };
  const followRef = (ref: unknown): string | null => {
    if (typeof ref !== 'string' || !LOCAL_REF.test(ref))
      return '“$ref” must point into this schema itself (#/...).';
    if (counting.has(ref)) return `“$ref” ${ref} refers to itself: recursive schemas are not accepted.`;
    const known = expanded.get(ref);
    if (known !== undefined) {
      objects += known;
      return objects > PARAMETER_LIMITS.maxObjects ? tooLarge() : null;
    }
    const target = resolvePointer(root, ref);
    if (target === undefined) return `“$ref” ${ref.slice(0, 100)} names nothing in the schema.`;
    const before = objects;
    counting.add(ref);
    const p = visit(target, false, ref);
    counting.delete(ref);
    expanded.set(ref, objects - before);
    return p;
  };
  return visit(root, false, '');
}

/**
 * The schema the text holds, or why it cannot be one the API accepts: JSON syntax (with the position), then
 * the API's rules for parameters. Compiling is left to the API, whose message shows at the field too.
 */
export function checkParameters(text: string): {
  schema: Record<string, unknown> | null;
  problem: string | null;
} {
  if (text.trim() === '')
    return { schema: null, problem: 'Write a JSON Schema, e.g. {"type": "object", "properties": {}}.' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { schema: null, problem: `Not valid JSON: ${(err as Error).message}` };
  }
  if (!isObject(value)) return { schema: null, problem: 'The schema must be a JSON object ({ ... }).' };
  if (text.length > PARAMETER_LIMITS.maxChars || JSON.stringify(value).length > PARAMETER_LIMITS.maxChars)
    return { schema: null, problem: `The schema may be at most ${PARAMETER_LIMITS.maxChars} characters.` };
  if (depthOf(value, PARAMETER_LIMITS.maxDepth) > PARAMETER_LIMITS.maxDepth)
    return { schema: null, problem: `The schema may nest at most ${PARAMETER_LIMITS.maxDepth} levels deep.` };
  if (value.type !== 'object')
    return { schema: null, problem: 'The schema must describe an object: its “type” must be "object".' };
  if (value.properties !== undefined && !isObject(value.properties))
    return { schema: null, problem: '“properties” must be an object of property names to schemas.' };
  const rule = ruleProblem(value);
  if (rule) return { schema: null, problem: rule };
  return { schema: value, problem: null };
}

export const PROPERTY_TYPES: [string, string][] = [
  ['string', 'Text'],
  ['number', 'Number'],
  ['integer', 'Whole number'],
  ['boolean', 'Yes or no'],
  ['string[]', 'List of texts'],
];

/** One argument as the form builder edits it. */
export interface PropertyRow {
  name: string;
  type: string;
  description: string;
  required: boolean;
  /** Allowed values (text arguments only); empty: any. */
  choices: string[];
}

const PROPERTY_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** The rows of a schema the form can show whole, or null when it uses more than the form edits. */
export function schemaToRows(schema: Record<string, unknown>): PropertyRow[] | null {
  const allowedTop = new Set(['type', 'properties', 'required', 'additionalProperties']);
  if (Object.keys(schema).some((k) => !allowedTop.has(k))) return null;
  if (schema.additionalProperties !== undefined && schema.additionalProperties !== false) return null;
  const props = (schema.properties ?? {}) as Record<string, unknown>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const rows: PropertyRow[] = [];
  for (const [name, raw] of Object.entries(props)) {
    if (!isObject(raw)) return null;
    const keys = Object.keys(raw).filter((k) => k !== 'description');
    let type: string;
    let choices: string[] = [];
    if (raw.type === 'array') {
      if (!isObject(raw.items) || raw.items.type !== 'string' || Object.keys(raw.items).length !== 1)
        return null;
      if (keys.some((k) => k !== 'type' && k !== 'items')) return null;
      type = 'string[]';
    } else {
      if (typeof raw.type !== 'string' || !['string', 'number', 'integer', 'boolean'].includes(raw.type))
        return null;
      if (keys.some((k) => k !== 'type' && !(k === 'enum' && raw.type === 'string'))) return null;
      if (raw.enum !== undefined) {
        if (!Array.isArray(raw.enum) || raw.enum.some((e) => typeof e !== 'string')) return null;
        choices = raw.enum as string[];
      }
      type = raw.type;
    }
    if (raw.description !== undefined && typeof raw.description !== 'string') return null;
    rows.push({
      name,
      type,
      description: (raw.description as string | undefined) ?? '',
      required: required.includes(name),
      choices,
    });
  }
  if (required.some((r) => !(r in props))) return null;
  return rows;
}

/** The schema the rows describe, and the first problem of a row (named by its position), if any. */
export function rowsToSchema(rows: PropertyRow[]): {
  schema: Record<string, unknown>;
  problem: string | null;
} {
  const properties: Record<string, unknown> = {};
  let problem: string | null = null;
  rows.forEach((r, i) => {
    const name = r.name.trim();
    if (!problem && !PROPERTY_NAME.test(name))
      problem = `Argument ${i + 1}: a name is letters, digits and _, not starting with a digit.`;
    else if (!problem && name in properties) problem = `Argument ${i + 1}: the name ${name} is used twice.`;
    const base: Record<string, unknown> =
      r.type === 'string[]' ? { type: 'array', items: { type: 'string' } } : { type: r.type };
    const choices = r.choices.map((c) => c.trim()).filter(Boolean);
    if (r.type === 'string' && choices.length) base.enum = choices;
    if (r.description.trim()) base.description = r.description.trim();
    properties[name] = base;
  });
  const required = rows.filter((r) => r.required).map((r) => r.name.trim());
  const schema: Record<string, unknown> = { type: 'object', properties };
  if (required.length) schema.required = required;
  return { schema, problem };
}

/** The editor's state: the form of rows when the schema fits it, else the JSON itself; the text either way. */
export interface ParametersState {
  mode: 'form' | 'json';
  rows: PropertyRow[];
  text: string;
}

export function parametersState(schema: Record<string, unknown> | null): ParametersState {
  const s = schema ?? { type: 'object', properties: {} };
  const rows = schemaToRows(s);
  return { mode: rows ? 'form' : 'json', rows: rows ?? [], text: JSON.stringify(s, null, 2) };
}

/** The schema to send, or the problem that keeps it from being sent. */
export function parametersValue(state: ParametersState): {
  schema: Record<string, unknown> | null;
  problem: string | null;
} {
  if (state.mode === 'json') return checkParameters(state.text);
  const { schema, problem } = rowsToSchema(state.rows);
  return problem ? { schema: null, problem } : checkParameters(JSON.stringify(schema));
}
