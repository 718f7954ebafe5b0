import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { levelDbfs, mixPcm16, rms } from '../audio/pcm';
import { mulawDecode, mulawEncode } from '../audio/mulaw';
import { resamplePcm16 } from '../audio/resample';
import { seededRandom, sineWave, whiteNoise } from '../audio/signals';
import { crc16Ccitt } from './crc16';
import { lowPassSpeech, mixUnder } from './speech-band';
import {
  TEXT_SIGNAL_BIT_RATE,
  TextSignalDecoder,
  decodeTextSignal,
  encodeTextSignal,
  textSignalDurationMs,
} from './text-modem';
import { decodePcm16Wav } from './wav';

const ASCII = 'Your appointment is confirmed for Tuesday at 3:45 PM.';
const UNICODE = 'Grüße aus Köln — ¿qué tal? 日本語 ✓';

/** Speech stand-in: harmonics of a 100 Hz voice up to 2 kHz plus noise, low-passed like TTS output. */
function speechLike(samples: number, sampleRate: number, dbfs = -20): Int16Array {
  const random = seededRandom(7);
  const out = new Float64Array(samples);
  for (let h = 1; h * 100 <= 2000; h++) {
    const amplitude = 1 / h;
    const phase = random() * 2 * Math.PI;
    for (let n = 0; n < samples; n++)
      out[n] += amplitude * Math.sin(phase + (2 * Math.PI * h * 100 * n) / sampleRate);
  }
  // A syllable-rate envelope, so the level moves like speech.
  for (let n = 0; n < samples; n++) out[n] *= 0.6 + 0.4 * Math.sin((2 * Math.PI * 4 * n) / sampleRate);
  const noise = whiteNoise(samples, -30, 3);
  const pcm = new Int16Array(samples);
  let sum = 0;
  for (let n = 0; n < samples; n++) sum += out[n] * out[n];
  const scale = (32768 * Math.pow(10, dbfs / 20)) / Math.sqrt(sum / samples);
  for (let n = 0; n < samples; n++) pcm[n] = Math.round(out[n] * scale + noise[n]);
  return lowPassSpeech(pcm, sampleRate);
}

function viaMulaw(pcm: Int16Array): Int16Array {
  return mulawDecode(mulawEncode(pcm));
}

function inChunks(decoder: TextSignalDecoder, pcm: Int16Array, sampleRate: number): string[] {
  const frame = (sampleRate * 20) / 1000;
  const texts: string[] = [];
  for (let at = 0; at < pcm.length; at += frame) texts.push(...decoder.push(pcm.subarray(at, at + frame)));
  return texts;
}

describe('crc16Ccitt', () => {
  it('matches the CCITT-FALSE check value', () => {
    expect(crc16Ccitt(Buffer.from('123456789'))).toBe(0x29b1);
    expect(crc16Ccitt(new Uint8Array(0))).toBe(0xffff);
  });
});

describe('encodeTextSignal / decodeTextSignal', () => {
  it.each([8000, 16000])('round-trips ASCII and non-ASCII text exactly at %i Hz', (rate) => {
    for (const text of [ASCII, UNICODE, '']) {
      expect(decodeTextSignal(encodeTextSignal(text, { sampleRate: rate }), rate)).toEqual({ text });
    }
  });

  it('lasts as long as textSignalDurationMs says, at the requested level, and carries > 15 chars/s', () => {
    const pcm = encodeTextSignal(ASCII, { sampleRate: 8000, levelDbfs: -24 });
    expect(pcm.length).toBe((textSignalDurationMs(ASCII) * 8000) / 1000);
    expect(Math.abs(levelDbfs(pcm) + 24)).toBeLessThan(0.5);
    expect(TEXT_SIGNAL_BIT_RATE / 8).toBeGreaterThan(15);
  });

  it('survives mu-law under speech 10 dB louder, at 8 and 16 kHz', () => {
    for (const rate of [8000, 16000]) {
      const speech = speechLike(rate * 5, rate, -20);
      const data = encodeTextSignal(UNICODE, { sampleRate: rate, levelDbfs: levelDbfs(speech) - 10 });
      const mixed = viaMulaw(mixUnder(speech, data, rate));
      expect(decodeTextSignal(mixed, rate)).toEqual({ text: UNICODE });
    }
  });

  it('survives resampling 16k -> 8k and 8k -> 16k with mu-law', () => {
    const wide = mixUnder(
      speechLike(16000 * 5, 16000),
      encodeTextSignal(ASCII, { sampleRate: 16000 }),
      16000,
    );
    expect(decodeTextSignal(viaMulaw(resamplePcm16(wide, 16000, 8000)), 8000)).toEqual({ text: ASCII });
    const narrow = viaMulaw(
      mixUnder(speechLike(8000 * 5, 8000), encodeTextSignal(ASCII, { sampleRate: 8000 }), 8000),
    );
    expect(decodeTextSignal(resamplePcm16(narrow, 8000, 16000), 16000)).toEqual({ text: ASCII });
  });

  it('finds the frame after leading silence at any sample offset', () => {
    const data = encodeTextSignal(ASCII, { sampleRate: 8000 });
    for (const lead of [1, 7, 13, 19, 333]) {
      const pcm = new Int16Array(lead + data.length);
      pcm.set(data, lead);
      expect(decodeTextSignal(viaMulaw(pcm), 8000)).toEqual({ text: ASCII });
    }
  });

  it('decodes a line as a browser microphone delivered it, at every bit-timing offset', () => {
    // The caller channel of a browser session's recording: the offline voice's "lookup order 12345" played by
    // Chromium's fake microphone, through its gain control and resampling, the web client and mu-law. A loop of
    // the line drifts against the decoder's bit timing; with phases 1/8 bit apart, a fifth of the offsets failed.
    const clip = decodePcm16Wav(readFileSync(join(__dirname, 'testdata', 'browser-mic-line.wav')));
    expect(clip.sampleRate).toBe(8000);
    const failed: number[] = [];
    for (let lead = 0; lead < 8000 / TEXT_SIGNAL_BIT_RATE; lead++) {
      const pcm = new Int16Array(lead + clip.samples.length);
      pcm.set(clip.samples, lead);
      if (decodeTextSignal(pcm, 8000)?.text !== 'lookup order 12345') failed.push(lead);
    }
    expect(failed).toEqual([]);
  });

  it('rejects a corrupted payload (CRC)', () => {
    const pcm = encodeTextSignal(ASCII, { sampleRate: 8000 });
    // Swap the tone of one payload bit, the first (MSB) of the 10th text byte: after 64 header bits and 9 bytes.
    const start = (64 + 72) * 40;
    const bitIsMark = Buffer.from(ASCII)[9] & 0x80;
    const tone = sineWave(bitIsMark ? 2800 : 3200, 40, 8000, Math.max(...pcm.subarray(start, start + 40)));
    const corrupt = pcm.slice();
    corrupt.set(tone, start);
    expect(decodeTextSignal(pcm, 8000)).toEqual({ text: ASCII });
    expect(decodeTextSignal(corrupt, 8000)).toBeNull();
  });

  it('finds nothing in silence, noise or speech alone', () => {
    expect(decodeTextSignal(new Int16Array(8000 * 5), 8000)).toBeNull();
    expect(decodeTextSignal(whiteNoise(8000 * 30, -20, 11), 8000)).toBeNull();
    expect(decodeTextSignal(viaMulaw(speechLike(8000 * 10, 8000)), 8000)).toBeNull();
  });
});

describe('TextSignalDecoder', () => {
  it('decodes 20 ms chunks like the whole clip, once per frame, two utterances in a row', () => {
    for (const rate of [8000, 16000]) {
      const first = mixUnder(speechLike(rate * 4, rate), encodeTextSignal(ASCII, { sampleRate: rate }), rate);
      const second = encodeTextSignal(UNICODE, { sampleRate: rate });
      const stream = viaMulaw(mixPcm16(new Int16Array(first.length + 1000 + second.length), first));
      stream.set(viaMulaw(second), first.length + 1000);
      const decoder = new TextSignalDecoder(rate);
      expect(inChunks(decoder, stream, rate)).toEqual([ASCII, UNICODE]);
      // Nothing more arrives with trailing silence.
      expect(decoder.push(new Int16Array(rate))).toEqual([]);
    }
  });

  it('decodes back-to-back frames with no gap, and again after reset', () => {
    const a = encodeTextSignal('one', { sampleRate: 8000 });
    const b = encodeTextSignal('two', { sampleRate: 8000 });
    const both = new Int16Array(a.length + b.length);
    both.set(a);
    both.set(b, a.length);
    const decoder = new TextSignalDecoder(8000);
    expect(inChunks(decoder, both, 8000)).toEqual(['one', 'two']);
    decoder.push(a.subarray(0, a.length / 2));
    decoder.reset();
    expect(inChunks(decoder, b, 8000)).toEqual(['two']);
  });
});

describe('lowPassSpeech', () => {
  it('passes speech-band tones and removes the data band', () => {
    const low = sineWave(1000, 8000, 8000, 10000);
    const high = sineWave(2800, 8000, 8000, 10000);
    expect(rms(lowPassSpeech(low, 8000).subarray(100, -100)) / rms(low)).toBeGreaterThan(0.95);
    expect(rms(lowPassSpeech(high, 8000).subarray(100, -100)) / rms(high)).toBeLessThan(0.01);
    expect(lowPassSpeech(low, 8000)).toHaveLength(low.length);
  });

  it('says when a frame is under way (receiving) and not before its sync or after its end', () => {
    const signal = encodeTextSignal('Hello there, how are you?', { sampleRate: 8000 });
    const decoder = new TextSignalDecoder(8000);
    expect(decoder.receiving).toBe(false);
    decoder.push(signal.subarray(0, Math.floor(signal.length / 2)));
    expect(decoder.receiving).toBe(true);
    expect(decoder.push(signal.subarray(Math.floor(signal.length / 2)))).toEqual([
      'Hello there, how are you?',
    ]);
    expect(decoder.receiving).toBe(false);
  });

  it('a frame cut short and followed by silence does not swallow the next frame', () => {
    const cut = encodeTextSignal('This reply was interrupted half way through its text.', {
      sampleRate: 8000,
    });
    const next = encodeTextSignal("I'm sorry, goodbye.", { sampleRate: 8000 });
    const decoder = new TextSignalDecoder(8000);
    expect(decoder.push(cut.subarray(0, Math.floor(cut.length / 3)))).toEqual([]);
    expect(decoder.receiving).toBe(true);
    expect(decoder.push(new Int16Array(400))).toEqual([]);
    expect(decoder.receiving).toBe(false);
    expect(decoder.push(next)).toEqual(["I'm sorry, goodbye."]);
  });

  it('a frame cut short and followed at once by another gives way to it', () => {
    const cut = encodeTextSignal('This reply was interrupted half way through its text.', {
      sampleRate: 8000,
    });
    const next = encodeTextSignal("I'm sorry, goodbye.", { sampleRate: 8000 });
    const joined = new Int16Array(Math.floor(cut.length / 2) + next.length);
    joined.set(cut.subarray(0, Math.floor(cut.length / 2)));
    joined.set(next, Math.floor(cut.length / 2));
    expect(new TextSignalDecoder(8000).push(joined)).toEqual(["I'm sorry, goodbye."]);
  });
});
