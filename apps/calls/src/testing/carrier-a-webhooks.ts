// Callbacks of carrier_a as the gateway forwards them to the calls service (calls.callback.ingest): its form,
// signed (signature V3) with the account's token over the URL the platform handed out.
import { CarrierCallbackIngest } from '@vap/messages';
import {
  CARRIER_A_NONCE_HEADER,
  CARRIER_A_SIGNATURE_HEADER,
  carrierASignature,
} from '../carriers/carrier-a/carrier-a-signature';

/** A callback of a carrier_a call the platform placed: `form` posted to `url` (its answer, ring or hangup URL). */
export function carrierAWebhook(
  url: string,
  form: Record<string, string>,
  token: string,
): CarrierCallbackIngest {
  const { pathname, search } = new URL(url);
  const [, callId, event] = /\/callbacks\/carrier_a\/([^/]+)\/([^/]+)$/.exec(pathname) ?? [];
  const body = new URLSearchParams(form);
  const params = new Map([...body.keys()].map((name) => [name, body.getAll(name)]));
  const nonce = String(Date.now());
  return {
    provider: 'carrier_a',
    callId,
    event: decodeURIComponent(event),
    method: 'POST',
    url,
    path: pathname + search,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      [CARRIER_A_SIGNATURE_HEADER]: carrierASignature(token, 'POST', url, params, nonce),
      [CARRIER_A_NONCE_HEADER]: nonce,
    },
    rawBodyBase64: Buffer.from(body.toString()).toString('base64'),
  };
}
