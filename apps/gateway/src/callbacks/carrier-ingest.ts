import type { Request, Response } from 'express';
import { CarrierCallbackIngest, CarrierCallbackReply } from '@vap/messages';

/** Request headers with lower-case names; repeated headers joined as HTTP folds them. */
export function headersOf(req: Request): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/**
 * A carrier's request as received (method, URL, headers, raw body), for the calls service to verify
 * its signature over the exact bytes; the route says what it is about.
 */
export function carrierIngestOf(
  req: Request,
  route: Pick<CarrierCallbackIngest, 'provider' | 'callId' | 'event'>,
): CarrierCallbackIngest {
  const body: unknown = req.body;
  return {
    ...route,
    method: req.method,
    url: `${req.protocol}://${req.get('host')}${req.originalUrl}`,
    path: req.originalUrl,
    headers: headersOf(req),
    rawBodyBase64: Buffer.isBuffer(body) ? body.toString('base64') : '',
  };
}

/** Answers the carrier with what the calls service decided (status, content type and markup as given). */
export function sendCarrierReply(res: Response, reply: CarrierCallbackReply): void {
  res.status(reply.status).type(reply.contentType).send(reply.body);
}
