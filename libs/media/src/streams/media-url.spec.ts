import {
  buildBrowserStreamUrl,
  buildMediaStreamUrl,
  mediaStreamProtocolOf,
  mediaWebSocketBase,
  parseMediaStreamRequest,
} from './media-url';

const TOKEN = 'eyJjYWxsSWQiOiJjIn0.c2lnbmF0dXJl_-';

describe('buildMediaStreamUrl', () => {
  it.each([
    ['https://media.example.com', 'wss://media.example.com/media/carrier_b/call_1?token='],
    ['http://localhost:8080', 'ws://localhost:8080/media/carrier_b/call_1?token='],
    ['https://example.com/voice/', 'wss://example.com/voice/media/carrier_b/call_1?token='],
    ['https://example.com/a/b', 'wss://example.com/a/b/media/carrier_b/call_1?token='],
    ['wss://media.example.com:8443', 'wss://media.example.com:8443/media/carrier_b/call_1?token='],
    ['https://media.example.com:443', 'wss://media.example.com/media/carrier_b/call_1?token='],
  ])('maps MEDIA_PUBLIC_URL %s to a WebSocket URL', (publicUrl, expected) => {
    expect(buildMediaStreamUrl({ publicUrl, carrier: 'carrier_b', callId: 'call_1', token: TOKEN })).toBe(
      expected + TOKEN,
    );
  });

  it('encodes the call id and token', () => {
    expect(
      buildMediaStreamUrl({
        publicUrl: 'https://m.example.com',
        carrier: 'carrier_a',
        callId: 'a/b c',
        token: 'x&y',
      }),
    ).toBe('wss://m.example.com/media/carrier_a/a%2Fb%20c?token=x%26y');
  });

  it.each([
    'ftp://m.example.com',
    'https://m.example.com/?a=1',
    'https://m.example.com/#x',
    'https://u:p@m.example.com',
    'm.example.com',
  ])('refuses MEDIA_PUBLIC_URL %s', (publicUrl) => {
    expect(() =>
      buildMediaStreamUrl({ publicUrl, carrier: 'carrier_b', callId: 'c', token: TOKEN }),
    ).toThrow();
  });

  it('refuses an empty call id', () => {
    expect(() =>
      buildMediaStreamUrl({
        publicUrl: 'https://m.example.com',
        carrier: 'carrier_b',
        callId: '',
        token: TOKEN,
      }),
    ).toThrow(RangeError);
  });
});

describe('mediaWebSocketBase', () => {
  it('keeps the host and prefix and swaps the scheme', () => {
    expect(mediaWebSocketBase('https://example.com/voice//').href).toBe('wss://example.com/voice');
    expect(mediaWebSocketBase('http://example.com').href).toBe('ws://example.com/');
  });
});

describe('parseMediaStreamRequest', () => {
  it('reads back what buildMediaStreamUrl made, with the URL the carrier signed', () => {
    const publicUrl = 'https://example.com/voice';
    const url = buildMediaStreamUrl({ publicUrl, carrier: 'sandbox', callId: 'call 1/2', token: TOKEN });
    const target = new URL(url);
    expect(parseMediaStreamRequest(target.pathname + target.search, publicUrl)).toEqual({
      ok: true,
      carrier: 'sandbox',
      callId: 'call 1/2',
      token: TOKEN,
      publicUrl: url,
    });
  });

  it('accepts a path whose prefix a proxy already stripped', () => {
    const parsed = parseMediaStreamRequest(`/media/carrier_a/c1?token=${TOKEN}`, 'https://example.com/voice');
    expect(parsed).toEqual({
      ok: true,
      carrier: 'carrier_a',
      callId: 'c1',
      token: TOKEN,
      publicUrl: `wss://example.com/voice/media/carrier_a/c1?token=${TOKEN}`,
    });
  });

  it('keeps other query parameters in the signed URL', () => {
    const parsed = parseMediaStreamRequest(`/media/carrier_b/c1?token=${TOKEN}&x=1`, 'http://localhost:3000');
    expect(parsed.ok && parsed.publicUrl).toBe(`ws://localhost:3000/media/carrier_b/c1?token=${TOKEN}&x=1`);
  });

  it('reads a browser session stream, /browser/<sessionId>, as carrier browser', () => {
    const publicUrl = 'https://example.com/voice';
    const url = buildBrowserStreamUrl({
      publicUrl,
      sessionId: 'a2f3c9e4-1111-4f00-8000-000000000001',
      token: TOKEN,
    });
    expect(url).toBe(`wss://example.com/voice/browser/a2f3c9e4-1111-4f00-8000-000000000001?token=${TOKEN}`);
    const target = new URL(url);
    expect(parseMediaStreamRequest(target.pathname + target.search, publicUrl)).toEqual({
      ok: true,
      carrier: 'browser',
      callId: 'a2f3c9e4-1111-4f00-8000-000000000001',
      token: TOKEN,
      publicUrl: url,
    });
    expect(parseMediaStreamRequest(`/browser/s1?token=${TOKEN}`, publicUrl)).toMatchObject({
      ok: true,
      carrier: 'browser',
      callId: 's1',
    });
  });

  it.each([
    ['/browser/s1', 'missing_token'],
    ['/browser?token=t', 'not_a_stream_path'],
    ['/browser/s1/extra?token=t', 'not_a_stream_path'],
    ['/media/browser/s1?token=t', 'unknown_carrier'],
    ['/media/carrier_b/c1', 'missing_token'],
    ['/media/carrier_b/c1?token=', 'missing_token'],
    ['/media/carrier_z/c1?token=t', 'unknown_carrier'],
    ['/media/carrier_b?token=t', 'not_a_stream_path'],
    ['/media/carrier_b/c1/extra?token=t', 'not_a_stream_path'],
    ['/other/media/carrier_b/c1?token=t', 'not_a_stream_path'],
    ['/calls/c1', 'not_a_stream_path'],
    ['/media/carrier_b/%E0%A4%A?token=t', 'not_a_stream_path'],
  ])('refuses %s (%s)', (target, reason) => {
    expect(parseMediaStreamRequest(target, 'https://example.com')).toEqual({ ok: false, reason });
  });
});

describe('mediaStreamProtocolOf', () => {
  it('gives the sandbox carrier_b protocol', () => {
    expect(mediaStreamProtocolOf('carrier_a')).toBe('carrier_a');
    expect(mediaStreamProtocolOf('carrier_b')).toBe('carrier_b');
    expect(mediaStreamProtocolOf('sandbox')).toBe('carrier_b');
    expect(mediaStreamProtocolOf('browser')).toBe('browser');
  });
});
