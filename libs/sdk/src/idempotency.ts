import { randomUUID } from 'node:crypto';
import { IDEMPOTENT_OPERATIONS } from './generated/idempotent-operations.gen';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Path templates as patterns matched against a URL's end (the base URL may carry a path prefix). */
const PATTERNS = IDEMPOTENT_OPERATIONS.map((op) => ({
  method: op.method,
  pattern: new RegExp(
    `${op.path
      .split(/(\{[^}]+\})/)
      .map((part) => (/^\{[^}]+\}$/.test(part) ? '[^/]+' : escapeRegExp(part)))
      .join('')}$`,
  ),
}));

/** Whether the operation a request targets honours an Idempotency-Key (POST /calls/start). */
export function takesIdempotencyKey(method: string, url: string): boolean {
  const pathname = new URL(url).pathname.replace(/\/+$/, '');
  return PATTERNS.some((p) => p.method === method.toUpperCase() && p.pattern.test(pathname));
}

/**
 * Request interceptor: a call start without an Idempotency-Key gets a fresh one. It runs once per SDK call,
 * before the retries, so every attempt of one call carries the same key and the platform dials once.
 */
export function addIdempotencyKey(request: Request): Request {
  if (!request.headers.has(IDEMPOTENCY_KEY_HEADER) && takesIdempotencyKey(request.method, request.url)) {
    request.headers.set(IDEMPOTENCY_KEY_HEADER, randomUUID());
  }
  return request;
}
