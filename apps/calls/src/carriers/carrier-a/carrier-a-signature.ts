import { createHmac } from 'node:crypto';
import { FormParams, sameSignature, sortedNames } from '../signing/form-params';

export const CARRIER_A_SIGNATURE_HEADER = 'x-plivo-signature-v3';
export const CARRIER_A_NONCE_HEADER = 'x-plivo-signature-v3-nonce';

function sortedQuery(url: URL): string {
  const query: FormParams = new Map();
  for (const [k, v] of url.searchParams) query.set(k, [...(query.get(k) ?? []), v]);
  return sortedNames(query)
    .flatMap((k) => [...(query.get(k) ?? [])].sort().map((v) => `${k}=${v}`))
    .join('&');
}

/**
 * The string carrier_a signs (signature V3), step by step as documented:
 * base `scheme://host[:port]/path`; the query with keys sorted and values sorted within a key as `k=v`
 * joined by `&`; for POST, `?` + query when the query or the body is non-empty, `.` when both are, then
 * the body parameters sorted by name as `namevalue`; for GET, `?` + query when there is one.
 */
export function carrierAStringToSign(method: string, url: string, body: FormParams): string {
  const parsed = new URL(url);
  const base = `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  const query = sortedQuery(parsed);
  if (method.toUpperCase() !== 'POST') return query ? `${base}?${query}` : base;
  const names = sortedNames(body);
  if (!query && !names.length) return base;
  const post = names
    .map((k) =>
      [...(body.get(k) ?? [])]
        .sort()
        .map((v) => k + v)
        .join(''),
    )
    .join('');
  return `${base}?${query}${query && names.length ? '.' : ''}${post}`;
}

export function carrierASignature(
  authToken: string,
  method: string,
  url: string,
  body: FormParams,
  nonce: string,
): string {
  return createHmac('sha256', authToken)
    .update(`${carrierAStringToSign(method, url, body)}.${nonce}`, 'utf8')
    .digest('base64');
}

/** The header may carry several comma-separated signatures (e.g. during a token rotation); one must match. */
export function verifyCarrierASignature(
  authToken: string,
  method: string,
  url: string,
  body: FormParams,
  signatureHeader: string | undefined,
  nonce: string | undefined,
): boolean {
  if (!signatureHeader || !nonce || !authToken) return false;
  const expected = carrierASignature(authToken, method, url, body, nonce);
  return signatureHeader
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((given) => sameSignature(expected, given))
    .reduce((any, ok) => any || ok, false);
}
