// The one place where a partner's input becomes a regular expression or a compiled JSON Schema. Anything a
// partner writes (function parameters, test-scenario assertions, extraction keys, dictionary words, tool
// names) reaches V8's backtracking regex engine only through here: a schema may carry no regex keyword at
// all, and a regex is built only from escaped literals around the caller's constant text, so every match
// runs in time linear in the input. `tools/lint/partner-regex.spec.ts` fails when code elsewhere compiles a
// regex or a schema.
import Ajv, { type ValidateFunction } from 'ajv';
import type { RegExpEngine } from 'ajv/dist/types';

/** JSON Schema keywords whose value is a regular expression: refused anywhere in a partner's schema. */
export const REGEX_SCHEMA_KEYWORDS: readonly string[] = ['pattern', 'patternProperties'];

/** Keywords whose value maps names (properties, definitions) to schemas: those keys are names, not keywords. */
export const SCHEMA_NAME_MAPS: ReadonlySet<string> = new Set([
  'properties',
  '$defs',
  'definitions',
  'dependentSchemas',
  'dependencies',
  'dependentRequired',
]);

/** Keywords whose value is data (compared, shown to the model), never compiled as a schema. */
export const SCHEMA_DATA_KEYWORDS: ReadonlySet<string> = new Set(['const', 'enum', 'default', 'examples']);

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Where a regex keyword sits in a partner's schema (`<path>.pattern`), or null when there is none. The whole
 * value is walked, not only the keywords known to hold schemas, so one under `dependencies`, `items`, `not` or
 * an unknown keyword is found; a name under `properties` may be anything. Walks at most `maxNodes` values, and
 * reports a schema larger than that as if it had one (callers bound sizes before this anyway).
 */
export function regexKeywordPath(schema: unknown, path = 'schema', maxNodes = 10_000): string | null {
  let nodes = 0;
  const visit = (node: unknown, at: string, names: boolean): string | null => {
    if (++nodes > maxNodes) return at;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const found = visit(node[i], `${at}[${i}]`, false);
        if (found) return found;
      }
      return null;
    }
    if (!isPlainObject(node)) return null;
    for (const [key, child] of Object.entries(node)) {
      if (!names && REGEX_SCHEMA_KEYWORDS.includes(key)) return `${at}.${key}`;
      if (!names && SCHEMA_DATA_KEYWORDS.has(key)) continue;
      const found = visit(child, `${at}.${key}`, !names && SCHEMA_NAME_MAPS.has(key) && isPlainObject(child));
      if (found) return found;
    }
    return null;
  };
  return visit(schema, path, false);
}

/** What ajv would build a regular expression with: never (a schema that needs one does not compile). */
function noRegExp(source: string): never {
  throw new Error(`regular expressions are not accepted (${source.slice(0, 50)})`);
}
noRegExp.code = 'noRegExp';

/**
 * Compiles a partner's JSON Schema, or throws with the reason. A fresh compiler per schema (a schema's `$id`
 * never meets another's), no formats, no remote schemas, and no regular expression: a regex keyword anywhere is
 * refused before ajv sees it, and ajv's regex engine throws as a second line.
 */
export function compilePartnerSchema(schema: Record<string, unknown>): ValidateFunction {
  const regex = regexKeywordPath(schema, 'schema');
  if (regex) throw new Error(`${regex}: regular expressions are not accepted`);
  const ajv = new Ajv({
    strict: false,
    allErrors: true,
    validateFormats: false,
    allowUnionTypes: true,
    code: { regExp: noRegExp as unknown as RegExpEngine },
  });
  return ajv.compile(schema);
}

/** A partner's text as a regex that matches it literally. */
export function escapeRegExpLiteral(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** How literals combine in `literalRegExp`: any one of them, or all of them in order. */
export interface LiteralRegExpShape {
  /** `any`: one of the literals (alternation, longest first is the caller's order); `sequence`: all, in order. */
  join: 'any' | 'sequence';
  /** Between the literals of a sequence: the platform's own constant regex source (e.g. `[\\s_-]+`). */
  separator?: string;
  /** Constant regex source the platform puts before and after the literals. */
  before?: string;
  after?: string;
  flags?: string;
}

/** Most literals and characters of literal text one regex is built from. */
export const LITERAL_REGEXP_LIMITS = { literals: 1000, chars: 20_000 } as const;

/**
 * A regex built from a partner's literals (escaped) inside the platform's constant `before`/`after`/`separator`
 * source. Throws past LITERAL_REGEXP_LIMITS, so a partner's list never grows one regex without bound.
 */
export function literalRegExp(literals: readonly string[], shape: LiteralRegExpShape): RegExp {
  const chars = literals.reduce((n, l) => n + l.length, 0);
  if (literals.length > LITERAL_REGEXP_LIMITS.literals || chars > LITERAL_REGEXP_LIMITS.chars)
    throw new Error('too much literal text for one pattern');
  const escaped = literals.map(escapeRegExpLiteral);
  const body = shape.join === 'any' ? `(?:${escaped.join('|')})` : escaped.join(shape.separator ?? '');
  return new RegExp(`${shape.before ?? ''}${body}${shape.after ?? ''}`, shape.flags);
}
