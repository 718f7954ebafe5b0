import { mulawDecode, mulawEncode } from '../audio/mulaw';
import { pcm16FromBuffer, pcm16ToBuffer } from '../audio/pcm';
import { Resampler } from '../audio/resample';
import {
  BROWSER_AUDIO_BYTES_PER_MS,
  BROWSER_CALLER_DISCONNECTED,
  BROWSER_CALLER_ENDED,
  BrowserStreamCodec,
  parseBrowserMessage,
  USER_TEXT_MAX_CHARS,
} from './browser-stream';
import { mediaStreamCodec } from './media-stream-adapters';
import type { MediaStreamEvent } from './media-stream-event';

/** `ms` of a sine at `hz`, PCM16 at `rate`, starting at sample `from`. */
function sine(rate: number, ms: number, hz = 440, amplitude = 8000, from = 0): Int16Array {
  const out = new Int16Array((rate * ms) / 1000);
  for (let i = 0; i < out.length; i++) {
    out[i] = Math.round(amplitude * Math.sin((2 * Math.PI * hz * (from + i)) / rate));
  }
  return out;
}

function audioOf(result: ReturnType<BrowserStreamCodec['decodeBinary']>): Buffer {
  if (!result.ok) throw new Error(`not decoded: ${JSON.stringify(result.error)}`);
  const event = result.message as MediaStreamEvent;
  if (event.type !== 'audio') throw new Error(`not audio: ${event.type}`);
  return event.payload;
}

/** Correlation of two signals (1: the same shape). */
function correlation(a: Int16Array, b: Int16Array): number {
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    ab += a[i] * b[i];
    aa += a[i] * a[i];
    bb += b[i] * b[i];
  }
  return ab / Math.sqrt(aa * bb);
}

describe('BrowserStreamCodec', () => {
  it('is what mediaStreamCodec gives for the browser protocol, one per stream', () => {
    const a = mediaStreamCodec('browser');
    expect(a).toBeInstanceOf(BrowserStreamCodec);
    expect(mediaStreamCodec('browser')).not.toBe(a);
    expect(a.audioBytesPerMs).toBe(32);
    expect(a.startsOnAdmission).toBe(true);
    expect(a.peerCloseReason).toBe(BROWSER_CALLER_DISCONNECTED);
    // Carriers' codecs stay text-only and speak to no client.
    const carrier = mediaStreamCodec('carrier_b');
    expect(carrier.decodeBinary).toBeUndefined();
    expect(carrier.encodeNotice).toBeUndefined();
    expect(carrier.startsOnAdmission).toBe(false);
    expect(carrier.audioBytesPerMs).toBe(8);
  });

  it('turns 20 ms of 16 kHz PCM16 (640 bytes) into 20 ms of 8 kHz mu-law (160 bytes) once the filter is primed', () => {
    const codec = new BrowserStreamCodec();
    const sizes: number[] = [];
    for (let i = 0; i < 10; i++) {
      const frame = pcm16ToBuffer(sine(16_000, 20, 440, 8000, i * 320));
      expect(frame.length).toBe(20 * BROWSER_AUDIO_BYTES_PER_MS);
      sizes.push(audioOf(codec.decodeBinary(Buffer.from(frame))).length);
    }
    // The resampler lags by its half-length on the first frame only.
    expect(sizes[0]).toBeLessThanOrEqual(160);
    expect(sizes.slice(1)).toEqual(Array(9).fill(160));
  });

  it('keeps the shape of speech both ways: 16 kHz in, 8 kHz mu-law to the conversation, 16 kHz back out', () => {
    const codec = new BrowserStreamCodec();
    const input = sine(16_000, 400, 300);
    const narrow: Buffer[] = [];
    for (let at = 0; at < input.length; at += 320) {
      narrow.push(audioOf(codec.decodeBinary(Buffer.from(pcm16ToBuffer(input.subarray(at, at + 320))))));
    }
    const mulaw = Buffer.concat(narrow);
    // What the conversation hears is the same tone at 8 kHz.
    const heard = mulawDecode(mulaw);
    // The resampler is time-aligned: output sample k is input time k (it only holds back the last few).
    expect(heard.length).toBeGreaterThan(400 * 8 - 20);
    expect(correlation(heard.subarray(200), sine(8000, 400, 300).subarray(200))).toBeGreaterThan(0.98);
    // And the agent's mu-law goes back as 16 kHz PCM16 binary.
    const wide: Buffer[] = [];
    for (let at = 0; at < mulaw.length; at += 160) {
      const out = codec.encode({ type: 'sendAudio', payload: mulaw.subarray(at, at + 160) });
      expect(Buffer.isBuffer(out)).toBe(true);
      wide.push(out as Buffer);
    }
    const back = pcm16FromBuffer(Buffer.concat(wide));
    expect(back.length).toBeGreaterThan(input.length - 100);
    expect(correlation(back.subarray(800), input.subarray(800))).toBeGreaterThan(0.97);
  });

  it('resamples frame after frame exactly as a fresh resampler would, aligned or not, reusing its buffers', () => {
    const codec = new BrowserStreamCodec();
    const up = new Resampler(8000, 16_000);
    const down = new Resampler(16_000, 8000);
    const agent = mulawEncode(sine(8000, 200, 500));
    const caller = sine(16_000, 200, 700);
    for (let at = 0; at < agent.length; at += 160) {
      const frame = agent.subarray(at, at + 160);
      const out = codec.encode({ type: 'sendAudio', payload: frame }) as Buffer;
      expect(out.equals(Buffer.from(pcm16ToBuffer(up.push(mulawDecode(frame)))))).toBe(true);
    }
    for (let at = 0, i = 0; at < caller.length; at += 320, i++) {
      const bytes = pcm16ToBuffer(caller.subarray(at, at + 320));
      // Every other frame at an odd offset, as a slice of a socket's read buffer can be.
      const data = i % 2 === 0 ? Buffer.from(bytes) : Buffer.concat([Buffer.alloc(1), bytes]).subarray(1);
      const expected = mulawEncode(down.push(caller.subarray(at, at + 320)));
      expect(audioOf(codec.decodeBinary(data)).equals(expected)).toBe(true);
    }
  });

  it('reads keypad keys, drops other keys and refuses a dtmf message without a digit', () => {
    const codec = new BrowserStreamCodec();
    expect(codec.decode('{"type":"dtmf","digit":"5"}')).toEqual({
      ok: true,
      message: { type: 'dtmf', digit: '5' },
    });
    expect(codec.decode('{"type":"dtmf","digit":"?"}')).toEqual({ ok: true, message: null });
    expect(codec.decode('{"type":"dtmf","digit":7}')).toEqual({
      ok: false,
      error: { reason: 'invalid_field', event: 'dtmf', field: 'digit' },
    });
  });

  it('drops caller audio while muted (the session feeds silence meanwhile), and decodes it again once unmuted', () => {
    const codec = new BrowserStreamCodec();
    const frame = () => Buffer.from(pcm16ToBuffer(sine(16_000, 20, 440, 12000)));
    audioOf(codec.decodeBinary(frame()));
    expect(codec.muted).toBe(false);
    expect(codec.decode('{"type":"mute","muted":true}')).toEqual({ ok: true, message: null });
    expect(codec.muted).toBe(true);
    expect(codec.decodeBinary(frame())).toEqual({ ok: true, message: null });
    // Bad audio is still bad while muted.
    expect(codec.decodeBinary(Buffer.alloc(3)).ok).toBe(false);
    codec.decode('{"type":"mute","muted":false}');
    expect(codec.muted).toBe(false);
    codec.decodeBinary(frame());
    const live = audioOf(codec.decodeBinary(frame()));
    expect(live.length).toBe(160);
    expect(Math.max(...mulawDecode(live).map(Math.abs))).toBeGreaterThan(5000);
  });

  it('maps played, end and mute from the client, and mark and clear to it, 1:1', () => {
    const codec = new BrowserStreamCodec();
    expect(codec.decode('{"type":"played","name":"utt-1"}')).toEqual({
      ok: true,
      message: { type: 'played', mark: 'utt-1' },
    });
    expect(codec.decode('{"type":"end"}')).toEqual({
      ok: true,
      message: { type: 'stopped', reason: BROWSER_CALLER_ENDED },
    });
    expect(JSON.parse(codec.encode({ type: 'mark', name: 'utt-1' }) as string)).toEqual({
      type: 'mark',
      name: 'utt-1',
    });
    expect(JSON.parse(codec.encode({ type: 'clear' }) as string)).toEqual({ type: 'clear' });
    expect(
      JSON.parse(codec.encodeNotice({ type: 'tool', name: 'end_call', status: 'running', arguments: {} })),
    ).toEqual({
      type: 'tool',
      name: 'end_call',
      status: 'running',
      arguments: {},
    });
  });

  it.each([
    ['not JSON', 'hello', { reason: 'invalid_json' }],
    ['an array', '[1]', { reason: 'not_an_object' }],
    ['no type', '{"name":"x"}', { reason: 'invalid_field', field: 'type' }],
    [
      'a played without a name',
      '{"type":"played"}',
      { reason: 'invalid_field', event: 'played', field: 'name' },
    ],
    [
      'a played with an empty name',
      '{"type":"played","name":""}',
      { reason: 'invalid_field', field: 'name' },
    ],
    [
      'a mute without a boolean',
      '{"type":"mute","muted":"yes"}',
      { reason: 'invalid_field', field: 'muted' },
    ],
    ['an unknown type', '{"type":"dance"}', { reason: 'unknown_event', event: 'dance' }],
  ])('refuses %s as a typed error', (_what, text, error) => {
    const result = new BrowserStreamCodec().decode(text);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatchObject(error);
  });

  it('reads typing as a typing event: no words, no turn', () => {
    expect(new BrowserStreamCodec().decode('{"type":"typing"}')).toEqual({
      ok: true,
      message: { type: 'typing' },
    });
  });

  it('reads a typed line (user_text) trimmed, and answers a malformed one instead of closing the stream', () => {
    const codec = new BrowserStreamCodec();
    expect(codec.decode('{"type":"user_text","text":"  Check order 42 "}')).toEqual({
      ok: true,
      message: { type: 'text', text: 'Check order 42' },
    });
    expect(
      codec.decode(JSON.stringify({ type: 'user_text', text: 'a'.repeat(USER_TEXT_MAX_CHARS) })).ok,
    ).toBe(true);
    for (const bad of [
      { type: 'user_text' },
      { type: 'user_text', text: ['a'] },
      { type: 'user_text', text: ' \n ' },
      { type: 'user_text', text: 'a'.repeat(USER_TEXT_MAX_CHARS + 1) },
    ]) {
      const result = codec.decode(JSON.stringify(bad));
      expect(result).toEqual({
        ok: false,
        error: { reason: 'invalid_field', event: 'user_text', field: 'text' },
      });
      if (!result.ok)
        expect(codec.answerInvalid(result.error)).toMatchObject({ type: 'error', code: 'invalid_user_text' });
    }
    // Other malformed messages still break the stream.
    const played = codec.decode('{"type":"played"}');
    expect(!played.ok && codec.answerInvalid(played.error)).toBeNull();
  });

  it('refuses binary audio of an odd length, and ignores an empty one', () => {
    const codec = new BrowserStreamCodec();
    expect(codec.decodeBinary(Buffer.alloc(641))).toEqual({
      ok: false,
      error: { reason: 'invalid_field', field: 'audio' },
    });
    expect(codec.decodeBinary(Buffer.alloc(0))).toEqual({ ok: true, message: null });
    // Any even length is audio, at any alignment in memory.
    const odd = Buffer.alloc(101);
    expect(audioOf(codec.decodeBinary(odd.subarray(1))).length).toBeGreaterThanOrEqual(0);
  });

  it('parses a prototype-polluting message as plain data', () => {
    expect(parseBrowserMessage('{"type":"__proto__"}')).toEqual({
      ok: false,
      error: { reason: 'unknown_event', event: '__proto__' },
    });
    expect(parseBrowserMessage('{"type":"toString"}').ok).toBe(false);
    expect(mulawEncode(new Int16Array(0)).length).toBe(0);
  });
});
