import { createHmac } from 'node:crypto';

/**
 * Headers every signed request to a partner's systems carries (custom functions, lifecycle hooks, a partner's own
 * model server). One implementation for every service that signs.
 */
export const PARTNER_REQUEST_HEADERS = {
  /** Unix time in milliseconds when the attempt left. */
  timestamp: 'x-vap-timestamp',
  /** `v1=<hex HMAC-SHA256 of "<timestamp>.<raw body>">` keyed with the resource's signing secret. */
  signature: 'x-vap-signature',
  /** The request's integration log id: the same on a retry, so the partner can drop a repeat. */
  requestId: 'x-vap-request-id',
} as const;

/**
 * The signature of a request to a partner, as the inbound decision request is signed: HMAC-SHA256 keyed with
 * the secret over `<timestamp>.<raw body>`, hex, prefixed `v1=`. For GET and DELETE the "raw body" is the
 * `payload` query parameter's value (decoded).
 */
export function partnerRequestSignature(secret: string, timestampMs: string, rawBody: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestampMs}.${rawBody}`, 'utf8').digest('hex')}`;
}
