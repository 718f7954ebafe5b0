import type { Request, Response } from 'express';
import { carrierIngestOf, headersOf, sendCarrierReply } from './carrier-ingest';

const request = (body: unknown) =>
  ({
    method: 'POST',
    protocol: 'https',
    originalUrl: '/callbacks/carrier_b/c-1/status?x=1',
    get: (name: string) => (name === 'host' ? 'api.test:8443' : undefined),
    headers: { 'x-twilio-signature': 'sig', 'x-forwarded-for': ['10.0.0.1', '10.0.0.2'], gone: undefined },
    body,
  }) as unknown as Request;

describe('carrier ingest', () => {
  it('keeps header values, joining repeated ones', () => {
    expect(headersOf(request(null))).toEqual({
      'x-twilio-signature': 'sig',
      'x-forwarded-for': '10.0.0.1, 10.0.0.2',
    });
  });

  it('forwards the request as received, the raw body in base64', () => {
    const raw = Buffer.from('CallSid=CA1&CallStatus=ringing');
    expect(carrierIngestOf(request(raw), { provider: 'carrier_b', callId: 'c-1', event: 'status' })).toEqual({
      provider: 'carrier_b',
      callId: 'c-1',
      event: 'status',
      method: 'POST',
      url: 'https://api.test:8443/callbacks/carrier_b/c-1/status?x=1',
      path: '/callbacks/carrier_b/c-1/status?x=1',
      headers: { 'x-twilio-signature': 'sig', 'x-forwarded-for': '10.0.0.1, 10.0.0.2' },
      rawBodyBase64: raw.toString('base64'),
    });
  });

  it('forwards an empty body when none was read as bytes', () => {
    const ingest = carrierIngestOf(request({ parsed: true }), { provider: 'p', callId: 'c', event: 'e' });
    expect(ingest.rawBodyBase64).toBe('');
  });

  it('answers with the status, content type and body the calls service gave', () => {
    const calls: unknown[][] = [];
    const res = {
      status: (s: number) => (calls.push(['status', s]), res),
      type: (t: string) => (calls.push(['type', t]), res),
      send: (b: string) => (calls.push(['send', b]), res),
    } as unknown as Response;
    sendCarrierReply(res, { status: 403, contentType: 'application/xml', body: '<Response/>' });
    expect(calls).toEqual([
      ['status', 403],
      ['type', 'application/xml'],
      ['send', '<Response/>'],
    ]);
  });
});
