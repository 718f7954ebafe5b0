import {
  carrierACheckpoint,
  carrierAClearAudio,
  carrierAPlayAudio,
  carrierAStreamMarkup,
  parseCarrierAExtraHeaders,
  parseCarrierAMessage,
} from './carrier-a-stream';

const START = {
  event: 'start',
  sequenceNumber: 1,
  start: {
    callId: '12345678-1234-1234-1234-123456789abc',
    streamId: '87654321-4321-4321-4321-cba987654321',
    accountId: 'MA123',
    tracks: ['inbound'],
    mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 8000 },
  },
  extra_headers: 'callId=c1,agent=a1',
};
const MEDIA = {
  event: 'media',
  sequenceNumber: 42,
  streamId: '87654321-4321-4321-4321-cba987654321',
  media: { track: 'inbound', timestamp: '1705312200000', chunk: 41, payload: '//8A' },
  extra_headers: 'callId=c1,agent=a1',
};

describe('parseCarrierAMessage', () => {
  it('reads start with its echoed extra headers', () => {
    expect(parseCarrierAMessage(JSON.stringify(START))).toEqual({ ok: true, message: START });
  });

  it('reads start without extra headers', () => {
    const { extra_headers: _omit, ...start } = START;
    expect(parseCarrierAMessage(JSON.stringify(start))).toEqual({ ok: true, message: start });
  });

  it('reads media, with its string timestamp as a number', () => {
    expect(parseCarrierAMessage(JSON.stringify(MEDIA))).toEqual({
      ok: true,
      message: {
        event: 'media',
        sequenceNumber: 42,
        streamId: MEDIA.streamId,
        media: { track: 'inbound', timestamp: 1705312200000, chunk: 41, payload: '//8A' },
      },
    });
  });

  it('reads dtmf, playedStream, clearedAudio and stop', () => {
    expect(
      parseCarrierAMessage('{"event":"dtmf","streamId":"s1","dtmf":{"track":"inbound","digit":"#"}}'),
    ).toEqual({
      ok: true,
      message: { event: 'dtmf', streamId: 's1', dtmf: { track: 'inbound', digit: '#' } },
    });
    expect(parseCarrierAMessage('{"event":"playedStream","streamId":"s1","name":"greeting"}')).toEqual({
      ok: true,
      message: { event: 'playedStream', streamId: 's1', name: 'greeting' },
    });
    expect(parseCarrierAMessage('{"sequenceNumber":0,"event":"clearedAudio","streamId":"s1"}')).toEqual({
      ok: true,
      message: { event: 'clearedAudio', streamId: 's1', sequenceNumber: 0 },
    });
    expect(parseCarrierAMessage('{"event":"stop"}')).toEqual({ ok: true, message: { event: 'stop' } });
  });

  it.each([
    ['nope', { reason: 'invalid_json' }],
    ['{"event":"playAudio"}', { reason: 'unknown_event', event: 'playAudio' }],
    [
      '{"event":"playedStream","streamId":"s1"}',
      { reason: 'invalid_field', event: 'playedStream', field: 'name' },
    ],
    [
      JSON.stringify({ ...MEDIA, media: { ...MEDIA.media, payload: 42 } }),
      { reason: 'invalid_field', event: 'media', field: 'media.payload' },
    ],
    [
      JSON.stringify({ ...START, start: { ...START.start, callId: '' } }),
      { reason: 'invalid_field', event: 'start', field: 'start.callId' },
    ],
    [
      JSON.stringify({ ...START, extra_headers: { callId: 'c1' } }),
      { reason: 'invalid_field', event: 'start', field: 'extra_headers' },
    ],
    [
      '{"event":"clearedAudio","streamId":5}',
      { reason: 'invalid_field', event: 'clearedAudio', field: 'streamId' },
    ],
    ['{"event":"dtmf","digit":"1"}', { reason: 'invalid_field', event: 'dtmf', field: 'dtmf' }],
  ])('refuses %s', (text, error) => {
    expect(parseCarrierAMessage(text)).toEqual({ ok: false, error });
  });
});

describe('parseCarrierAExtraHeaders', () => {
  it('reads comma- or semicolon-separated pairs', () => {
    expect(parseCarrierAExtraHeaders('callId=c1,agent=a1')).toEqual({ callId: 'c1', agent: 'a1' });
    expect(parseCarrierAExtraHeaders('userId=12345;sessionId=abc-xyz')).toEqual({
      userId: '12345',
      sessionId: 'abc-xyz',
    });
  });

  it('skips pairs without a name or value separator, and reads nothing from nothing', () => {
    expect(parseCarrierAExtraHeaders('a=1,junk,=2,b=')).toEqual({ a: '1', b: '' });
    expect(parseCarrierAExtraHeaders(undefined)).toEqual({});
    expect(parseCarrierAExtraHeaders('')).toEqual({});
  });
});

describe('carrier_a outbound messages', () => {
  it('plays base64 mu-law at 8 kHz', () => {
    expect(carrierAPlayAudio(Buffer.from([0xff, 0xff, 0x00]))).toEqual({
      event: 'playAudio',
      media: { contentType: 'audio/x-mulaw', sampleRate: 8000, payload: '//8A' },
    });
  });

  it('sends checkpoint and clearAudio with the stream id', () => {
    expect(carrierACheckpoint('s1', 'turn-3')).toEqual({
      event: 'checkpoint',
      streamId: 's1',
      name: 'turn-3',
    });
    expect(carrierAClearAudio('s1')).toEqual({ event: 'clearAudio', streamId: 's1' });
  });
});

describe('carrierAStreamMarkup', () => {
  it('builds a bidirectional mu-law stream that keeps the call alive, the URL escaped as text', () => {
    expect(carrierAStreamMarkup('wss://m.example.com/media/carrier_a/c1?token=a.b&x=<1>')).toBe(
      '<Stream bidirectional="true" keepCallAlive="true" contentType="audio/x-mulaw;rate=8000">' +
        'wss://m.example.com/media/carrier_a/c1?token=a.b&amp;x=&lt;1&gt;</Stream>',
    );
  });

  it('adds extra headers and the status callback', () => {
    expect(
      carrierAStreamMarkup('wss://m.example.com/s', {
        extraHeaders: { callId: 'c_1-2.3', agent: 'a1' },
        statusCallbackUrl: 'https://api.example.com/stream-status?a=1&b=2',
      }),
    ).toBe(
      '<Stream bidirectional="true" keepCallAlive="true" contentType="audio/x-mulaw;rate=8000"' +
        ' extraHeaders="callId=c_1-2.3,agent=a1" statusCallbackUrl="https://api.example.com/stream-status?a=1&amp;b=2">' +
        'wss://m.example.com/s</Stream>',
    );
  });

  it('omits an empty extra header set', () => {
    expect(carrierAStreamMarkup('wss://m.example.com/s', { extraHeaders: {} })).not.toContain('extraHeaders');
  });

  it.each<Record<string, string>>([
    { 'a,b': '1' },
    { a: 'x=y' },
    { a: 'x;y' },
    { a: 'x y' },
    { a: '' },
    { a: '"' },
  ])('refuses extra headers the carrier cannot carry: %j', (extraHeaders) => {
    expect(() => carrierAStreamMarkup('wss://m.example.com/s', { extraHeaders })).toThrow(RangeError);
  });

  it('takes extra headers up to 512 bytes and refuses more', () => {
    expect(() =>
      carrierAStreamMarkup('wss://m.example.com/s', { extraHeaders: { a: 'x'.repeat(511) } }),
    ).toThrow('512 bytes');
    expect(carrierAStreamMarkup('wss://m.example.com/s', { extraHeaders: { a: 'x'.repeat(510) } })).toContain(
      'a=x',
    );
  });
});
