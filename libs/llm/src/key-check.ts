import { CONNECT_TIMEOUT_CODES, CONNECTION_REFUSED_CODES, NAME_UNRESOLVED_CODES } from '@vap/egress';
import { request } from 'undici';

/**
 * Why no connection to the provider was made: its name does not resolve here (`dns`), the address refused or
 * could not be routed to (`refused`), or nothing answered within the check's deadline (`timeout`: a provider that
 * accepted the connection and stayed silent reads the same).
 */
export type KeyCheckConnection = 'dns' | 'refused' | 'timeout';

/**
 * What a key check found. `rejected`: the provider answered that the key is not good (401/403, or its own
 * refusal), `message` quotes what it said; `unreachable`: no answer in time, or a 5xx (the key is not judged);
 * `connection` says when no answer came at all, and why (the message then holds no resolver or socket text).
 * Shared by every provider kind (speech and models).
 */
export type KeyCheck =
  | { ok: true }
  | {
      ok: false;
      reason: 'rejected' | 'unreachable';
      status?: number;
      message: string;
      connection?: KeyCheckConnection;
    };

/** A connection the provider dropped before answering reads as refused too. */
const DROPPED_CODES = new Set(['ECONNRESET', 'EPIPE']);

/** Why a request got no answer, from its error or one it wraps; undefined when it is no connection failure. */
export function connectionFailureOf(err: unknown): KeyCheckConnection | undefined {
  for (let e = err as { cause?: unknown; code?: unknown } | undefined, depth = 0; e && depth < 5; depth++) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (NAME_UNRESOLVED_CODES.has(code)) return 'dns';
    if (CONNECTION_REFUSED_CODES.has(code) || DROPPED_CODES.has(code)) return 'refused';
    if (CONNECT_TIMEOUT_CODES.has(code)) return 'timeout';
    e = e.cause as typeof e;
  }
  return undefined;
}

/** A failure with no answer from the provider: what kind, in words without the resolver's or socket's text. */
export function unansweredCheck(err: unknown, timedOut: boolean, timeoutMs: number): KeyCheck {
  const connection = timedOut ? 'timeout' : connectionFailureOf(err);
  const message =
    connection === 'dns'
      ? 'its host name does not resolve from here'
      : connection === 'refused'
        ? 'the connection was refused or could not be routed'
        : connection === 'timeout'
          ? `no answer within ${timeoutMs} ms`
          : err instanceof Error
            ? err.message
            : String(err);
  return connection
    ? { ok: false, reason: 'unreachable', message, connection }
    : { ok: false, reason: 'unreachable', message };
}

const EXCERPT_CHARS = 200;

/** The provider's own words from an error body: its JSON message field when it has one, else the text. */
export function providerWords(body: string): string {
  try {
    const json = JSON.parse(body) as Record<string, unknown>;
    const pick = (v: unknown): string | undefined =>
      typeof v === 'string'
        ? v
        : v && typeof v === 'object'
          ? pick((v as Record<string, unknown>).message ?? (v as Record<string, unknown>).detail)
          : undefined;
    const found = pick(json.error) ?? pick(json.detail) ?? pick(json.message) ?? pick(json.err_msg);
    if (found) return found.slice(0, EXCERPT_CHARS);
  } catch {
    // not JSON: the text itself
  }
  return body.replace(/\s+/g, ' ').trim().slice(0, EXCERPT_CHARS);
}

/**
 * Sends one authenticated request and judges the key by the answer: 2xx good; 400/401/403 rejected, quoting the
 * provider; anything else (5xx, 429, no answer in time) unreachable, since it says nothing of the key.
 */
export async function checkKeyByRequest(
  url: string,
  init: { method?: 'GET' | 'POST'; headers: Record<string, string>; body?: string },
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<KeyCheck> {
  const deadline = AbortSignal.timeout(timeoutMs);
  try {
    const res = await request(url, {
      method: init.method ?? 'GET',
      headers: init.headers,
      body: init.body,
      // undici's request follows no redirects: a key is never sent on to another host.
      signal: signal ? AbortSignal.any([signal, deadline]) : deadline,
    });
    const text = await res.body.text().catch(() => '');
    if (res.statusCode >= 200 && res.statusCode < 300) return { ok: true };
    const words = providerWords(text) || `HTTP ${res.statusCode}`;
    if ([400, 401, 403].includes(res.statusCode)) {
      return { ok: false, reason: 'rejected', status: res.statusCode, message: words };
    }
    return { ok: false, reason: 'unreachable', status: res.statusCode, message: words };
  } catch (error) {
    return unansweredCheck(error, deadline.aborted, timeoutMs);
  }
}
