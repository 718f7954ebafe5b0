import type { ErrorObject, ValidateFunction } from 'ajv';
import {
  BUILTIN_TOOL_NAMES,
  compilePartnerSchema,
  CUSTOM_FUNCTION_MIN_TIMEOUT_MS,
  REGEX_SCHEMA_KEYWORDS,
  SCHEMA_DATA_KEYWORDS,
  SCHEMA_NAME_MAPS,
} from '@vap/messages';
import { parseResponsePath } from './response-path';

/** Limits of a custom function's fields and of the account's functions (documented in docs/custom-functions.md). */
export const CustomFunctionLimits = {
  perAccount: 100,
  perAgent: 20,
  nameMax: 64,
  descriptionMax: 1000,
  /** `parameters` as JSON text, and its nesting. */
  parametersMaxChars: 16_384,
  parametersMaxDepth: 12,
  /**
   * Objects in `parameters` with its `$ref`s expanded. Checking arguments costs at most this many subschemas
   * applied to each of the arguments' values: with `argumentsMaxValues`, some tens of ms at worst.
   */
  schemaObjectsMax: 250,
  headersMax: 20,
  headerNameMax: 64,
  headerValueMax: 1024,
  responseVariablesMax: 20,
  speechTextMax: 500,
  delayMsMin: 500,
  delayMsMax: 60_000,
  timeoutMsMin: CUSTOM_FUNCTION_MIN_TIMEOUT_MS,
  /** The model's arguments as JSON text, and the values in them (objects, arrays and scalars, at any depth). */
  argumentsMaxChars: 16_384,
  argumentsMaxValues: 500,
} as const;

export const CUSTOM_FUNCTION_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type CustomFunctionMethod = (typeof CUSTOM_FUNCTION_METHODS)[number];

/** The voice runtime's own tools (the agent tool catalog): a function may not take their names. */
export const BUILT_IN_TOOL_NAMES: readonly string[] = BUILTIN_TOOL_NAMES;

export const CUSTOM_FUNCTION_NAME_PATTERN = /^[a-zA-Z_][a-zA-Z0-9_]{0,63}$/;
export const RESPONSE_VARIABLE_NAME_PATTERN = /^[a-zA-Z_][a-zA-Z0-9_]{0,63}$/;

/** `fnsec_` + 32 random bytes, base64url; the HMAC key is the whole string. */
export const CUSTOM_FUNCTION_SECRET_PREFIX = 'fnsec_';

const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;
// Visible ASCII, space, tab and obs-text: no CR, LF or other control characters.
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** Header names the platform sets itself or that change how the request travels. */
export function isReservedHeaderName(name: string): boolean {
  const lower = name.toLowerCase();
  return (
    [
      'host',
      'content-length',
      'content-type',
      'transfer-encoding',
      'connection',
      'keep-alive',
      'upgrade',
      'te',
      'trailer',
      'expect',
      'user-agent',
    ].includes(lower) ||
    lower.startsWith('x-vap-') ||
    lower.startsWith('proxy-')
  );
}

export function customFunctionNameProblem(value: unknown): string | null {
  if (typeof value !== 'string' || !CUSTOM_FUNCTION_NAME_PATTERN.test(value))
    return 'name must match ^[a-zA-Z_][a-zA-Z0-9_]{0,63}$ (letters, digits and _, not starting with a digit)';
  if (BUILT_IN_TOOL_NAMES.includes(value.toLowerCase()))
    return `name ${value} is a built-in tool's name (${BUILT_IN_TOOL_NAMES.join(', ')})`;
  return null;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function depthOf(value: unknown, limit: number, depth = 0): number {
  if (depth > limit || value === null || typeof value !== 'object') return depth;
  let max = depth;
  for (const child of Object.values(value as object)) {
    max = Math.max(max, depthOf(child, limit, depth + 1));
    if (max > limit) break;
  }
  return max;
}

/**
 * Keywords refused anywhere in a function's schema: `pattern` and `patternProperties` would run the partner's
 * regular expressions on the platform (a backtracking one stalls the service for every account); the others
 * change how `$ref` resolves or make validation asynchronous.
 */
const REFUSED_KEYWORDS = new Set([
  ...REGEX_SCHEMA_KEYWORDS,
  '$async',
  '$id',
  '$anchor',
  '$dynamicAnchor',
  '$dynamicRef',
  '$recursiveAnchor',
  '$recursiveRef',
]);

/** A local JSON pointer into the schema itself; anything else (other documents, anchors) is refused. */
const LOCAL_REF = /^#(\/[^#]*)?$/;

/**
 * Why a schema is refused before ajv sees it, or null. The whole JSON value is walked, not only the keywords
 * the platform knows to hold schemas, so a `pattern` under `dependencies`, behind a `$ref` or in any keyword
 * ajv applies is found; a name under `properties` (or another map of names) may be anything. `$ref`s must be
 * local JSON pointers that resolve, and not recursive; with them expanded the schema holds at most
 * `schemaObjectsMax` objects, which bounds what compiling it and checking arguments against it can cost.
 */
function schemaRuleProblem(root: Record<string, unknown>): string | null {
  let objects = 0;
  /** Objects below each `$ref` target, once counted; a target still being counted is a cycle. */
  const expanded = new Map<string, number>();
  const counting = new Set<string>();

  const visit = (node: unknown, names: boolean): string | null => {
    if (Array.isArray(node)) {
      for (const item of node) {
        const problem = visit(item, false);
        if (problem) return problem;
      }
      return null;
    }
    if (!isPlainObject(node)) return null;
    if (++objects > CustomFunctionLimits.schemaObjectsMax) return tooLarge();
    for (const [key, child] of Object.entries(node)) {
      if (!names && REFUSED_KEYWORDS.has(key)) return `parameters must not use the ${key} keyword`;
      if (!names && SCHEMA_DATA_KEYWORDS.has(key)) continue;
      if (!names && key === '$ref') {
        const problem = followRef(child);
        if (problem) return problem;
        continue;
      }
      const problem = visit(child, !names && SCHEMA_NAME_MAPS.has(key) && isPlainObject(child));
      if (problem) return problem;
    }
    return null;
  };

  const followRef = (ref: unknown): string | null => {
    if (typeof ref !== 'string' || !LOCAL_REF.test(ref))
      return 'parameters: $ref must be a local JSON pointer (#/...) into the schema itself';
    if (counting.has(ref)) return 'parameters: $ref must not be recursive';
    const known = expanded.get(ref);
    if (known !== undefined) {
      objects += known;
      return objects > CustomFunctionLimits.schemaObjectsMax ? tooLarge() : null;
    }
    const target = resolvePointer(root, ref);
    if (target === undefined) return `parameters: $ref ${ref.slice(0, 100)} names nothing in the schema`;
    const before = objects;
    counting.add(ref);
    const problem = visit(target, false);
    counting.delete(ref);
    expanded.set(ref, objects - before);
    return problem;
  };

  const tooLarge = () =>
    `parameters must hold at most ${CustomFunctionLimits.schemaObjectsMax} schema objects, its $refs expanded`;

  return visit(root, false);
}

/** The value a local JSON pointer (`#/a/b`, RFC 6901 escapes) names in `root`, or undefined. */
function resolvePointer(root: unknown, ref: string): unknown {
  let node = root;
  for (const raw of ref
    .slice(2)
    .split('/')
    .filter((_, i, all) => !(all.length === 1 && all[0] === ''))) {
    let part: string;
    try {
      part = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined;
    }
    if (Array.isArray(node) && /^(0|[1-9][0-9]*)$/.test(part)) node = node[Number(part)];
    else if (isPlainObject(node) && Object.prototype.hasOwnProperty.call(node, part)) node = node[part];
    else return undefined;
  }
  return node;
}

export function compileArgumentsSchema(schema: Record<string, unknown>): ValidateFunction {
  return compilePartnerSchema(schema);
}

/** Why `parameters` is refused, or null: a JSON Schema object (`type: "object"`) that compiles. */
export function parametersProblem(value: unknown): string | null {
  if (!isPlainObject(value)) return 'parameters must be a JSON Schema object';
  const text = JSON.stringify(value);
  if (text.length > CustomFunctionLimits.parametersMaxChars)
    return `parameters must be at most ${CustomFunctionLimits.parametersMaxChars} characters as JSON`;
  if (depthOf(value, CustomFunctionLimits.parametersMaxDepth) > CustomFunctionLimits.parametersMaxDepth)
    return `parameters must nest at most ${CustomFunctionLimits.parametersMaxDepth} levels deep`;
  if (value.type !== 'object') return 'parameters must be a JSON Schema with type "object"';
  if (value.properties !== undefined && !isPlainObject(value.properties))
    return 'parameters.properties must be an object';
  const refused = schemaRuleProblem(value);
  if (refused) return refused;
  try {
    compileArgumentsSchema(value);
  } catch (err) {
    return `parameters is not a valid JSON Schema: ${String((err as Error).message).slice(0, 200)}`;
  }
  return null;
}

/** Why static `headers` are refused, or null. */
export function headersProblem(value: unknown): string | null {
  if (!isPlainObject(value)) return 'headers must be an object of header names to string values';
  const names = Object.keys(value);
  if (names.length > CustomFunctionLimits.headersMax)
    return `headers must hold at most ${CustomFunctionLimits.headersMax} headers`;
  const seen = new Set<string>();
  for (const name of names) {
    if (name.length > CustomFunctionLimits.headerNameMax || !HEADER_NAME.test(name))
      return `headers: ${name.slice(0, 64)} is not a valid header name`;
    if (isReservedHeaderName(name)) return `headers: ${name} is set by the platform and cannot be given`;
    if (seen.has(name.toLowerCase())) return `headers: ${name} is given twice`;
    seen.add(name.toLowerCase());
    const v = value[name];
    if (typeof v !== 'string' || v.length > CustomFunctionLimits.headerValueMax || !HEADER_VALUE.test(v))
      return `headers: the value of ${name} must be a string of at most ${CustomFunctionLimits.headerValueMax} characters without line breaks`;
  }
  return null;
}

/** Why `response_variables` is refused, or null: variable names to paths of the documented subset. */
export function responseVariablesProblem(value: unknown): string | null {
  if (!isPlainObject(value)) return 'response_variables must be an object of variable names to JSON paths';
  const names = Object.keys(value);
  if (names.length > CustomFunctionLimits.responseVariablesMax)
    return `response_variables must hold at most ${CustomFunctionLimits.responseVariablesMax} variables`;
  for (const name of names) {
    if (!RESPONSE_VARIABLE_NAME_PATTERN.test(name))
      return `response_variables: ${name.slice(0, 64)} must match ^[a-zA-Z_][a-zA-Z0-9_]{0,63}$`;
    const path = value[name];
    if (typeof path !== 'string' || parseResponsePath(path) === null)
      return `response_variables: the path of ${name} must be $ followed by .key, ["key"] or [index] parts (at most 256 characters)`;
  }
  return null;
}

/** Whether the model's arguments are a JSON object of bounded size, before the schema looks at them. */
export function argumentsShapeProblem(value: unknown): string | null {
  if (!isPlainObject(value)) return 'arguments must be a JSON object';
  if (JSON.stringify(value).length > CustomFunctionLimits.argumentsMaxChars)
    return `arguments must be at most ${CustomFunctionLimits.argumentsMaxChars} characters as JSON`;
  if (valuesIn(value, CustomFunctionLimits.argumentsMaxValues) > CustomFunctionLimits.argumentsMaxValues)
    return `arguments must hold at most ${CustomFunctionLimits.argumentsMaxValues} values`;
  return null;
}

/** The values in a JSON value, itself included, counted up to just past `limit`. */
function valuesIn(value: unknown, limit: number): number {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && count <= limit) {
    const next = stack.pop();
    count += 1;
    if (next !== null && typeof next === 'object') stack.push(...Object.values(next as object));
  }
  return count;
}

/** A short account of ajv's errors naming the fields, for the model to correct its arguments. */
export function describeArgumentErrors(errors: ErrorObject[] | null | undefined): string {
  const parts = (errors ?? []).slice(0, 5).map((e) => {
    const missing = (e.params as { missingProperty?: string }).missingProperty;
    const extra = (e.params as { additionalProperty?: string }).additionalProperty;
    const at = e.instancePath ? e.instancePath.slice(1).replace(/\//g, '.') : '';
    if (missing) return `${at ? `${at}.` : ''}${missing} is required`;
    if (extra) return `${at ? `${at}.` : ''}${extra} is not an accepted argument`;
    return `${at || 'arguments'} ${e.message ?? 'is invalid'}`;
  });
  const more = (errors?.length ?? 0) > 5 ? `; and ${(errors?.length ?? 0) - 5} more` : '';
  return `invalid arguments: ${parts.join('; ')}${more}`;
}
