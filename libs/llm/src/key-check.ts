import { request } from 'undici';

/**
 * What a key check found. `rejected`: the provider answered that the key is not good (401/403, or its own
 * refusal), `message` quotes what it said; `unreachable`: no answer in time, or a 5xx (the key is not judged).
 * Shared by every provider kind (speech and models).
 */
export type KeyCheck =
  { ok: true } | { ok: false; reason: 'rejected' | 'unreachable'; status?: number; message: string };

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
    const message = deadline.aborted
      ? `no answer within ${timeoutMs} ms`
      : error instanceof Error
        ? error.message
        : String(error);
    return { ok: false, reason: 'unreachable', message };
  }
}
