import type { NextFunction, Request, Response } from 'express';
import { AppError, ErrorDetail } from '@vap/messages';

/**
 * How deep a request's JSON may nest. The deepest documented body is far shallower; unbounded nesting
 * overflows the stack of recursive code downstream (validation, hashing, encoding) instead of answering 400.
 */
export const MAX_JSON_DEPTH = 32;

/** Names a field for a message; a key can itself hold a control character. */
function printable(name: string): string {
  return JSON.stringify(name).slice(1, -1);
}

/** A high surrogate without its low half, or a low one without its high half. */
const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * What Postgres cannot store as given: NUL in text and jsonb, and a lone UTF-16 surrogate (\ud800), which
 * jsonb refuses and text would silently replace.
 */
function stringProblem(value: string): string | null {
  if (value.includes('\u0000')) return 'must not contain NUL (\\u0000) characters';
  if (UNPAIRED_SURROGATE.test(value)) return 'must be valid Unicode (no unpaired surrogates)';
  return null;
}

/**
 * The first rule a value breaks, if any: strings (and keys) Postgres cannot store (see stringProblem), numbers
 * beyond the double range, and nesting deeper than MAX_JSON_DEPTH. Iterative, so that hostile depth cannot
 * overflow the check itself.
 */
export function inputProblem(value: unknown, field: string): ErrorDetail | null {
  const stack: { value: unknown; field: string; depth: number }[] = [{ value, field, depth: 0 }];
  while (stack.length) {
    const item = stack.pop()!;
    if (typeof item.value === 'string') {
      const problem = stringProblem(item.value);
      if (problem) return { field: item.field, message: `${item.field} ${problem}` };
      continue;
    }
    // JSON has no Infinity: a literal beyond the double range (1e400) parses to it and would be stored as null.
    if (typeof item.value === 'number' && !Number.isFinite(item.value))
      return { field: item.field, message: `${item.field} must be a finite number` };
    if (item.value === null || typeof item.value !== 'object' || Buffer.isBuffer(item.value)) continue;
    if (item.depth >= MAX_JSON_DEPTH)
      return { field: item.field, message: `${item.field} nests deeper than ${MAX_JSON_DEPTH} levels` };
    for (const [key, child] of Object.entries(item.value)) {
      const childField = item.field ? `${item.field}.${printable(key)}` : printable(key);
      const keyProblem = stringProblem(key);
      if (keyProblem) return { field: childField, message: `${childField} ${keyProblem}` };
      stack.push({ value: child, field: childField, depth: item.depth + 1 });
    }
  }
  return null;
}

function refusal(problem: ErrorDetail): AppError {
  return AppError.validation([problem], `Invalid request: ${problem.message}`);
}

/**
 * One rule for every route: no NUL character or unpaired surrogate anywhere in the path, the query or the
 * body, no number beyond the double range in the body, and no JSON nested deeper than MAX_JSON_DEPTH.
 * Refused with 400 VALIDATION_ERROR naming the field, before any handler, service or database sees the
 * request. This middleware checks the path and the query, before routing; refuseUnsafeBody the body, once
 * it is parsed.
 */
export function refuseUnsafeInput() {
  return (req: Request, _res: Response, next: NextFunction) => {
    const rawPath = req.originalUrl.split('?')[0];
    const problem = /%00/.test(rawPath)
      ? { field: 'path', message: 'the path must not contain NUL (%00) characters' }
      : inputProblem(req.query, '');
    next(problem ? refusal(problem) : undefined);
  };
}

/** The body's part of refuseUnsafeInput: throws its 400 when the parsed body breaks the rule. */
export function refuseUnsafeBody(req: Request): void {
  const problem = inputProblem(req.body, typeof req.body === 'string' ? 'body' : '');
  if (problem) throw refusal(problem);
}
