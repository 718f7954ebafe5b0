import { createHmac } from 'node:crypto';

/** Headers of the inbound.route request to a policy's decision URL (`<service>` = Vap). */
export const INBOUND_ROUTE_HEADERS = {
  event: 'X-Vap-Event',
  /** Unix time in milliseconds when the request was sent. */
  timestamp: 'X-Vap-Timestamp',
  /** `v1=<hex HMAC-SHA256>`; sent only when the policy has a webhook secret. */
  signature: 'X-Vap-Signature',
} as const;

/** Body of the inbound.route request. */
export interface InboundRouteRequestBody {
  event: 'inbound.route';
  version: string;
  provider: string;
  call: { provider_call_id: string; from_number: string; to_number: string };
  phone_number: { id: string; number: string };
  /** The agent assigned to the called number (id null when none is). */
  agent: { id: string | null };
  partner: { id: string };
}

/**
 * The inbound.route signature: HMAC-SHA256 keyed with the policy's webhook secret over
 * `<X-Vap-Timestamp>.<raw request body>` (the timestamp header's exact digits, a dot, the body bytes as
 * sent), hex encoded, prefixed `v1=`. Receivers recompute it from the raw body, compare in constant time and
 * reject timestamps more than 5 minutes away from their clock.
 */
export function inboundRouteSignature(secret: string, timestampMs: string, rawBody: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestampMs}.${rawBody}`, 'utf8').digest('hex')}`;
}
