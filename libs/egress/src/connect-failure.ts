import { PrivateNetworkError } from './private-network-guard';
import { FetchTimeoutError, ResponseTooLargeError, UnsupportedUrlError } from './public-http-client';

/**
 * What a partner reads of any failure before a connection was made: a refused address, a name that does not
 * resolve, a refused, unreachable or timed-out connection. One text for all of them, so that a partner's test
 * requests map neither the platform's internal names nor which of its ports are open.
 */
export const CONNECT_FAILED_MESSAGE =
  'could not connect: the address did not resolve to a public server that accepted the connection';

/** Resolver errors: the name does not resolve. */
export const NAME_UNRESOLVED_CODES: ReadonlySet<string> = new Set([
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EAI_NODATA',
  'EAI_NONAME',
  'ENODATA',
  'ESERVFAIL',
]);

/** Socket errors: the address refused the connection or could not be routed to. */
export const CONNECTION_REFUSED_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
]);

/** The connection did not open in time. */
export const CONNECT_TIMEOUT_CODES: ReadonlySet<string> = new Set(['ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT']);

/** Resolver and socket errors raised before a connection exists. */
const BEFORE_CONNECTION_CODES = new Set([
  ...NAME_UNRESOLVED_CODES,
  ...CONNECTION_REFUSED_CODES,
  ...CONNECT_TIMEOUT_CODES,
]);

/** Whether an outbound request failed before its connection was made (the error or one it wraps says so). */
export function isConnectFailure(err: unknown): boolean {
  for (let e = err as { cause?: unknown; code?: unknown } | undefined, depth = 0; e && depth < 5; depth++) {
    if (e instanceof PrivateNetworkError) return true;
    if (e instanceof FetchTimeoutError) return e.connecting;
    if (typeof e.code === 'string' && BEFORE_CONNECTION_CODES.has(e.code)) return true;
    e = e.cause as typeof e;
  }
  return false;
}

/**
 * What a partner reads of a failure once connected (TLS, a reset, an answer over the size limit): its code, never
 * the resolver's or socket's text, which can name where inside the platform's network a name resolved to.
 */
export function connectionFailureMessage(err: unknown): string {
  // The partner's own answer was too large, or its URL (or a redirect's) cannot be fetched: that says nothing
  // about the platform's network.
  if (err instanceof ResponseTooLargeError || err instanceof UnsupportedUrlError) return err.message;
  const code = (err as { code?: unknown }).code;
  const cause = (err as { cause?: { code?: unknown } }).cause?.code;
  const name = typeof code === 'string' ? code : typeof cause === 'string' ? cause : 'connection error';
  return `connection failed (${name})`;
}
