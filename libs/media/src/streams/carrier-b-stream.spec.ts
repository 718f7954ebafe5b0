import {
  carrierBClear,
  carrierBMark,
  carrierBMedia,
  carrierBStreamMarkup,
  parseCarrierBMessage,
} from './carrier-b-stream';

// Frames as the carrier's docs show them: counters and timestamps arrive as strings.
const START = {
  event: 'start',
  sequenceNumber: '1',
  start: {
    accountSid: 'AC123',
    streamSid: 'MZ456',
    callSid: 'CA789',
    tracks: ['inbound'],
    mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 8000, channels: 1 },
    customParameters: { callId: 'call_1', agent: 'a b' },
  },
  streamSid: 'MZ456',
};
const MEDIA = {
  event: 'media',
  sequenceNumber: '3',
  media: { track: 'inbound', chunk: '1', timestamp: '5', payload: '//8A' },
  streamSid: 'MZ456',
};

describe('parseCarrierBMessage', () => {
  it('reads connected', () => {
    expect(parseCarrierBMessage('{"event":"connected","protocol":"Call","version":"1.0.0"}')).toEqual({
      ok: true,
      message: { event: 'connected', protocol: 'Call', version: '1.0.0' },
    });
  });

  it('reads start with its custom parameters and numeric fields', () => {
    expect(parseCarrierBMessage(JSON.stringify(START))).toEqual({
      ok: true,
      message: { ...START, sequenceNumber: 1 },
    });
  });

  it('reads start without custom parameters as an empty set', () => {
    const { customParameters: _omit, ...start } = START.start;
    const parsed = parseCarrierBMessage(JSON.stringify({ ...START, start }));
    expect(parsed.ok && parsed.message.event === 'start' && parsed.message.start.customParameters).toEqual(
      {},
    );
  });

  it('reads media, turning string counters into numbers', () => {
    expect(parseCarrierBMessage(JSON.stringify(MEDIA))).toEqual({
      ok: true,
      message: {
        event: 'media',
        streamSid: 'MZ456',
        sequenceNumber: 3,
        media: { track: 'inbound', chunk: 1, timestamp: 5, payload: '//8A' },
      },
    });
  });

  it('reads dtmf, mark and stop', () => {
    expect(
      parseCarrierBMessage(
        '{"event":"dtmf","streamSid":"MZ456","sequenceNumber":"5","dtmf":{"track":"inbound_track","digit":"7"}}',
      ),
    ).toEqual({
      ok: true,
      message: {
        event: 'dtmf',
        streamSid: 'MZ456',
        sequenceNumber: 5,
        dtmf: { track: 'inbound_track', digit: '7' },
      },
    });
    expect(parseCarrierBMessage('{"event":"mark","streamSid":"MZ456","mark":{"name":"greeting"}}')).toEqual({
      ok: true,
      message: { event: 'mark', streamSid: 'MZ456', mark: { name: 'greeting' } },
    });
    expect(parseCarrierBMessage('{"event":"stop","stop":{"accountSid":"AC123","callSid":"CA789"}}')).toEqual({
      ok: true,
      message: { event: 'stop', stop: { accountSid: 'AC123', callSid: 'CA789' } },
    });
  });

  it.each([
    ['{"event":"media"', { reason: 'invalid_json' }],
    ['{"event":"clear","streamSid":"MZ456"}', { reason: 'unknown_event', event: 'clear' }],
    [
      JSON.stringify({ ...MEDIA, media: { ...MEDIA.media, payload: 'not base64!' } }),
      { reason: 'invalid_field', event: 'media', field: 'media.payload' },
    ],
    [
      JSON.stringify({ ...START, start: { ...START.start, customParameters: { n: 1 } } }),
      { reason: 'invalid_field', event: 'start', field: 'start.customParameters.n' },
    ],
    [
      JSON.stringify({ ...START, start: { ...START.start, mediaFormat: {} } }),
      { reason: 'invalid_field', event: 'start', field: 'start.mediaFormat.encoding' },
    ],
    ['{"event":"mark","mark":{}}', { reason: 'invalid_field', event: 'mark', field: 'mark.name' }],
    ['{"event":"dtmf","dtmf":{"digit":""}}', { reason: 'invalid_field', event: 'dtmf', field: 'dtmf.digit' }],
    ['{"event":"stop"}', { reason: 'invalid_field', event: 'stop', field: 'stop' }],
  ])('refuses %s', (text, error) => {
    expect(parseCarrierBMessage(text)).toEqual({ ok: false, error });
  });
});

describe('carrier_b outbound messages', () => {
  it('sends audio as base64 mu-law with the stream id', () => {
    expect(carrierBMedia('MZ456', Buffer.from([0xff, 0xff, 0x00]))).toEqual({
      event: 'media',
      streamSid: 'MZ456',
      media: { payload: '//8A' },
    });
  });

  it('sends mark and clear', () => {
    expect(carrierBMark('MZ456', 'turn-3')).toEqual({
      event: 'mark',
      streamSid: 'MZ456',
      mark: { name: 'turn-3' },
    });
    expect(carrierBClear('MZ456')).toEqual({ event: 'clear', streamSid: 'MZ456' });
  });
});

describe('carrierBStreamMarkup', () => {
  it('builds a bidirectional <Connect><Stream> with escaped URL and parameters', () => {
    expect(
      carrierBStreamMarkup('wss://media.example.com/media/carrier_b/c1?token=a.b&x=1', {
        callId: 'c1',
        'na"me': '<v&>',
      }),
    ).toBe(
      '<Connect><Stream url="wss://media.example.com/media/carrier_b/c1?token=a.b&amp;x=1">' +
        '<Parameter name="callId" value="c1"/><Parameter name="na&quot;me" value="&lt;v&amp;&gt;"/>' +
        '</Stream></Connect>',
    );
  });

  it('builds a stream without parameters', () => {
    expect(carrierBStreamMarkup('wss://m.example.com/s')).toBe(
      '<Connect><Stream url="wss://m.example.com/s"></Stream></Connect>',
    );
  });
});
