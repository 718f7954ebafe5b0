// Webhooks of the sandbox carrier (and carrier_b, whose shape it has) as the gateway forwards them to the calls service
// (calls.inbound_callback.ingest): carrier_b's form, signed with the sandbox account's token over the URL the
// platform handed out.
import { CarrierCallbackIngest } from '@vap/messages';
import { CARRIER_B_SIGNATURE_HEADER, carrierBSignature } from '../carriers/carrier-b/carrier-b-signature';
import { SANDBOX_TOKEN } from './fake-sandbox-carrier';

/** The inbound voice webhook of a connection's number: `form` posted to `url`, signed unless `signature` says. */
export function inboundWebhook(
  url: string,
  form: Record<string, string>,
  signature?: string,
): CarrierCallbackIngest {
  const { pathname, search } = new URL(url);
  const [, connectionId] = /\/callbacks\/inbound\/sandbox\/([^/]+)\/voice$/.exec(pathname) ?? [];
  const body = new URLSearchParams(form);
  const params = new Map([...body.keys()].map((name) => [name, body.getAll(name)]));
  return {
    provider: 'sandbox',
    callId: connectionId,
    // As the gateway's inbound webhook route names it.
    event: 'inbound',
    method: 'POST',
    url,
    path: pathname + search,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      [CARRIER_B_SIGNATURE_HEADER]: signature ?? carrierBSignature(SANDBOX_TOKEN, url, params),
    },
    rawBodyBase64: Buffer.from(body.toString()).toString('base64'),
  };
}

/**
 * A callback of a call the platform placed on the sandbox line or a carrier_b account: `form` posted to `url` (a
 * StatusCallback the carrier was given), signed with the account's token (the sandbox account's unless given).
 */
export function callWebhook(
  url: string,
  form: Record<string, string>,
  token = SANDBOX_TOKEN,
): CarrierCallbackIngest {
  const { pathname, search } = new URL(url);
  const [, provider, callId, event] = /\/callbacks\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(pathname) ?? [];
  const body = new URLSearchParams(form);
  const params = new Map([...body.keys()].map((name) => [name, body.getAll(name)]));
  return {
    provider,
    callId,
    event: decodeURIComponent(event),
    method: 'POST',
    url,
    path: pathname + search,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      [CARRIER_B_SIGNATURE_HEADER]: carrierBSignature(token, url, params),
    },
    rawBodyBase64: Buffer.from(body.toString()).toString('base64'),
  };
}
