/**
 * What the gateway forwards to the calls service (command calls.callback.ingest) for every request on
 * its public carrier-callback route `/callbacks/{provider}/{callId}/{event}`. Carriers authenticate by
 * signature, so the request is passed through untouched: the adapter of `provider` verifies it.
 */
export interface CarrierCallbackIngest {
  provider: string;
  /** Path parameters after the provider: the platform call id and the callback kind. */
  callId: string;
  event: string;
  method: string;
  /** The full URL as the gateway received it (scheme and host from X-Forwarded-* when behind a proxy). */
  url: string;
  /** Path and query exactly as requested, e.g. `/callbacks/carrier_b/<id>/status?x=1`. */
  path: string;
  /** Header names lower-cased; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The raw body, base64, so that signatures over the exact bytes can be verified. */
  rawBodyBase64: string;
}

/** The HTTP answer the gateway returns to the carrier. */
export interface CarrierCallbackReply {
  status: number;
  contentType: string;
  body: string;
}
