// The carriers' request signatures, written from their documented schemes independently of the platform's
// verifier (so a mistake on either side shows): callbacks and media-stream upgrades are signed with them.
import { createHmac } from 'node:crypto';

/** carrier_b: HMAC-SHA1 over the URL plus each parameter as name+value, names sorted; base64. */
export function signCarrierB(token: string, url: string, params: Record<string, string>): string {
  const data = Object.keys(params)
    .sort()
    .reduce((acc, k) => acc + k + params[k], url);
  return createHmac('sha1', token).update(data).digest('base64');
}

/** carrier_a V3: base URL, sorted query, then for POST "." between query and body and the sorted body as name+value. */
export function signCarrierA(
  token: string,
  url: string,
  params: Record<string, string>,
  nonce: string,
): string {
  const u = new URL(url);
  const base = `${u.protocol}//${u.host}${u.pathname}`;
  const query = [...u.searchParams]
    .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : 1) : a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const body = Object.keys(params)
    .sort()
    .map((k) => k + params[k])
    .join('');
  const signed = query || body ? `${base}?${query}${query && body ? '.' : ''}${body}` : base;
  return createHmac('sha256', token).update(`${signed}.${nonce}`).digest('base64');
}
