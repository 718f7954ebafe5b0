import { carrierAStreamAdapter, carrierBStreamAdapter, mediaStreamCodec } from './media-stream-adapters';
import { MediaStreamCommand } from './media-stream-event';

const AUDIO = Buffer.from([0xff, 0x7f, 0x00, 0x80]);
const AUDIO_B64 = AUDIO.toString('base64');

function decodedB(frame: object) {
  return mediaStreamCodec('carrier_b').decode(JSON.stringify(frame));
}

function decodedA(frame: object) {
  return mediaStreamCodec('carrier_a').decode(JSON.stringify(frame));
}

describe('carrier_b to neutral', () => {
  it('starts with the carrier call id, stream id and the markup parameters', () => {
    expect(
      decodedB({
        event: 'start',
        sequenceNumber: '1',
        streamSid: 'MZ1',
        start: {
          accountSid: 'AC1',
          callSid: 'CA1',
          streamSid: 'MZ1',
          tracks: ['inbound'],
          mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 8000, channels: 1 },
          customParameters: { callId: 'call_1' },
        },
      }),
    ).toEqual({
      ok: true,
      message: { type: 'started', callId: 'CA1', streamId: 'MZ1', params: { callId: 'call_1' } },
    });
  });

  it('decodes caller audio to mu-law bytes with its timestamp', () => {
    const frame = {
      event: 'media',
      streamSid: 'MZ1',
      sequenceNumber: '4',
      media: { track: 'inbound', chunk: '2', timestamp: '20', payload: AUDIO_B64 },
    };
    expect(decodedB(frame)).toEqual({ ok: true, message: { type: 'audio', payload: AUDIO, timestamp: 20 } });
    expect(decodedB({ ...frame, media: { ...frame.media, track: 'outbound' } })).toEqual({
      ok: true,
      message: null,
    });
  });

  it('maps mark, dtmf and stop, and has nothing for connected', () => {
    expect(decodedB({ event: 'mark', mark: { name: 'm1' } })).toEqual({
      ok: true,
      message: { type: 'played', mark: 'm1' },
    });
    expect(decodedB({ event: 'dtmf', dtmf: { track: 'inbound_track', digit: '5' } })).toEqual({
      ok: true,
      message: { type: 'dtmf', digit: '5' },
    });
    expect(decodedB({ event: 'stop', stop: { accountSid: 'AC1', callSid: 'CA1' } })).toEqual({
      ok: true,
      message: { type: 'stopped' },
    });
    expect(decodedB({ event: 'connected', protocol: 'Call', version: '1.0.0' })).toEqual({
      ok: true,
      message: null,
    });
  });

  it('passes parse errors through', () => {
    expect(mediaStreamCodec('carrier_b').decode('{')).toEqual({
      ok: false,
      error: { reason: 'invalid_json' },
    });
  });
});

describe('carrier_a to neutral', () => {
  it('starts with the carrier call id, stream id and the echoed extra headers as params', () => {
    expect(
      decodedA({
        event: 'start',
        sequenceNumber: 1,
        start: {
          callId: 'uuid-1',
          streamId: 'stream-1',
          accountId: 'MA1',
          tracks: ['inbound'],
          mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 8000 },
        },
        extra_headers: 'callId=call_1',
      }),
    ).toEqual({
      ok: true,
      message: { type: 'started', callId: 'uuid-1', streamId: 'stream-1', params: { callId: 'call_1' } },
    });
  });

  it('decodes caller audio and ignores other tracks', () => {
    const frame = {
      event: 'media',
      streamId: 'stream-1',
      sequenceNumber: 9,
      media: { track: 'inbound', timestamp: '1705312200000', chunk: 8, payload: AUDIO_B64 },
    };
    expect(decodedA(frame)).toEqual({
      ok: true,
      message: { type: 'audio', payload: AUDIO, timestamp: 1705312200000 },
    });
    expect(decodedA({ ...frame, media: { ...frame.media, track: 'outbound' } })).toEqual({
      ok: true,
      message: null,
    });
  });

  it('maps playedStream, clearedAudio, dtmf and stop', () => {
    expect(decodedA({ event: 'playedStream', name: 'm1' })).toEqual({
      ok: true,
      message: { type: 'played', mark: 'm1' },
    });
    expect(decodedA({ event: 'clearedAudio', streamId: 's' })).toEqual({
      ok: true,
      message: { type: 'cleared' },
    });
    expect(decodedA({ event: 'dtmf', dtmf: { digit: '*' } })).toEqual({
      ok: true,
      message: { type: 'dtmf', digit: '*' },
    });
    expect(decodedA({ event: 'stop' })).toEqual({ ok: true, message: { type: 'stopped' } });
  });

  it('passes keypad keys only: a lowercase a-d is read as A-D, anything else is dropped', () => {
    expect(decodedA({ event: 'dtmf', dtmf: { track: 'inbound', digit: 'b' } })).toEqual({
      ok: true,
      message: { type: 'dtmf', digit: 'B' },
    });
    for (const digit of ['x', '12', ' ', 'E', '\u0000'])
      expect(decodedA({ event: 'dtmf', dtmf: { digit } })).toEqual({ ok: true, message: null });
    expect(decodedB({ event: 'dtmf', dtmf: { digit: 'Z' } })).toEqual({ ok: true, message: null });
  });
});

describe('neutral commands to the carriers', () => {
  const commands: MediaStreamCommand[] = [
    { type: 'sendAudio', payload: AUDIO },
    { type: 'mark', name: 'turn-1' },
    { type: 'clear' },
  ];

  it('become carrier_b media, mark and clear', () => {
    expect(commands.map((command) => carrierBStreamAdapter.fromNeutral(command, 'MZ1'))).toEqual([
      { event: 'media', streamSid: 'MZ1', media: { payload: AUDIO_B64 } },
      { event: 'mark', streamSid: 'MZ1', mark: { name: 'turn-1' } },
      { event: 'clear', streamSid: 'MZ1' },
    ]);
  });

  it('become carrier_a playAudio, checkpoint and clearAudio', () => {
    expect(commands.map((command) => carrierAStreamAdapter.fromNeutral(command, 's1'))).toEqual([
      { event: 'playAudio', media: { contentType: 'audio/x-mulaw', sampleRate: 8000, payload: AUDIO_B64 } },
      { event: 'checkpoint', streamId: 's1', name: 'turn-1' },
      { event: 'clearAudio', streamId: 's1' },
    ]);
  });

  it('are encoded as JSON text frames by the codec', () => {
    expect(JSON.parse(String(mediaStreamCodec('carrier_b').encode({ type: 'clear' }, 'MZ1')))).toEqual({
      event: 'clear',
      streamSid: 'MZ1',
    });
    expect(
      JSON.parse(String(mediaStreamCodec('carrier_a').encode({ type: 'mark', name: 'x' }, 's1'))),
    ).toEqual({
      event: 'checkpoint',
      streamId: 's1',
      name: 'x',
    });
  });

  it('round-trip: audio a pipeline sends is what the carrier would hand back', () => {
    const sent = carrierBStreamAdapter.fromNeutral({ type: 'sendAudio', payload: AUDIO }, 'MZ1');
    const echoed = decodedB({
      event: 'media',
      streamSid: 'MZ1',
      sequenceNumber: 1,
      media: {
        track: 'inbound',
        chunk: 1,
        timestamp: 0,
        payload: sent.event === 'media' ? sent.media.payload : '',
      },
    });
    expect(echoed.ok && echoed.message?.type === 'audio' && echoed.message.payload.equals(AUDIO)).toBe(true);
  });
});
