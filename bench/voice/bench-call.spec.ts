import { randomBytes } from 'node:crypto';
import { verifyStreamToken } from '@vap/media';
import { BenchTransport, benchAgentSettings, benchCall, transportOf } from './bench-call';

describe('bench calls', () => {
  it('places every call on the transport asked for, or alternates phone and browser when mixed', () => {
    expect([0, 1, 2, 3].map((i) => transportOf(i, 'phone'))).toEqual(['phone', 'phone', 'phone', 'phone']);
    expect([0, 1, 2].map((i) => transportOf(i, 'browser'))).toEqual(['browser', 'browser', 'browser']);
    const mixed: BenchTransport[] = Array.from({ length: 100 }, (_, i) => transportOf(i, 'mixed'));
    expect(mixed.filter((t) => t === 'browser')).toHaveLength(50);
    expect(mixed.slice(0, 4)).toEqual(['phone', 'browser', 'phone', 'browser']);
  });

  it('gives a browser session a /browser/<id> URL with a token bound to it, and provider browser', () => {
    const key = randomBytes(32);
    const session = benchCall(0, benchAgentSettings(null), 'http://127.0.0.1:8080', key, 'browser');
    expect(session.transport).toBe('browser');
    expect(session.context.provider).toBe('browser');
    const url = new URL(session.streamUrl);
    expect(url.protocol).toBe('ws:');
    expect(url.pathname).toBe(`/browser/${session.context.callId}`);
    const phone = benchCall(1, benchAgentSettings(null), 'http://127.0.0.1:8080', key);
    expect(phone.context.provider).toBe('carrier_b');
    expect(new URL(phone.streamUrl).pathname).toBe(`/media/carrier_b/${phone.context.callId}`);
    const verified = verifyStreamToken(url.searchParams.get('token')!, key, Date.now());
    expect(verified).toMatchObject({ ok: true, claims: { callId: session.context.callId } });
  });
});
