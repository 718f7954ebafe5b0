import { levelDbfs } from './pcm';
import { Resampler, resamplePcm16 } from './resample';
import { countZeroCrossings, sineWave } from './signals';

function concat(parts: Int16Array[]): Int16Array {
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** Skips the filter's ramp-in and ramp-out at the clip's edges. */
function middle(samples: Int16Array, edge = 200): Int16Array {
  return samples.subarray(edge, samples.length - edge);
}

const PAIRS: [number, number][] = [
  [8000, 16000],
  [16000, 8000],
  [8000, 24000],
  [24000, 8000],
  [8000, 48000],
  [48000, 8000],
  [16000, 24000],
  [24000, 16000],
  [22050, 8000],
];

describe('resamplePcm16', () => {
  it.each(PAIRS)('%i -> %i Hz gives length * to / from samples', (from, to) => {
    expect(resamplePcm16(new Int16Array(from / 10), from, to)).toHaveLength(Math.ceil(to / 10));
    expect(resamplePcm16(new Int16Array(161), from, to)).toHaveLength(Math.ceil((161 * to) / from));
  });

  it.each(PAIRS)('%i -> %i Hz keeps a 1 kHz tone at 1 kHz and at its level', (from, to) => {
    const tone = sineWave(1000, from, from, 10000);
    const out = resamplePcm16(tone, from, to);
    // One second of 1 kHz: 2000 zero crossings.
    expect(Math.abs(countZeroCrossings(out) - 2000)).toBeLessThanOrEqual(2);
    expect(levelDbfs(middle(out))).toBeCloseTo(levelDbfs(middle(tone)), 0);
  });

  it('keeps the tone in phase (no delay) when upsampling', () => {
    const tone = sineWave(500, 800, 8000, 10000);
    const out = resamplePcm16(tone, 8000, 16000);
    const expected = sineWave(500, 1600, 16000, 10000);
    for (let i = 100; i < 1500; i++) expect(Math.abs(out[i] - expected[i])).toBeLessThan(150);
  });

  it('attenuates a 6 kHz tone when going 24k -> 8k (above the new Nyquist, it would alias to 2 kHz)', () => {
    const tone = sineWave(6000, 24000, 24000, 10000);
    const out = resamplePcm16(tone, 24000, 8000);
    expect(levelDbfs(middle(tone))).toBeGreaterThan(-14);
    expect(levelDbfs(middle(out))).toBeLessThan(levelDbfs(middle(tone)) - 50);
  });

  it('passes telephone-band speech frequencies when going 48k -> 8k', () => {
    const tone = sineWave(3000, 48000, 48000, 10000);
    const out = resamplePcm16(tone, 48000, 8000);
    expect(levelDbfs(middle(out))).toBeGreaterThan(levelDbfs(middle(tone)) - 1);
  });

  it('copies when the rates are equal', () => {
    const tone = sineWave(1000, 160);
    const out = resamplePcm16(tone, 8000, 8000);
    expect(out).not.toBe(tone);
    expect([...out]).toEqual([...tone]);
  });

  it('refuses rates that are not positive integers', () => {
    expect(() => new Resampler(0, 8000)).toThrow(RangeError);
    expect(() => new Resampler(8000, 44.1)).toThrow(RangeError);
  });
});

describe('Resampler (streaming)', () => {
  it.each(PAIRS)('%i -> %i Hz: chunked output equals whole output', (from, to) => {
    const input = concat([sineWave(700, from / 4, from, 9000), sineWave(1900, from / 4, from, 6000, 1)]);
    const whole = resamplePcm16(input, from, to);
    const resampler = new Resampler(from, to);
    const parts: Int16Array[] = [];
    // Uneven chunk sizes, including empty and single-sample chunks.
    const sizes = [1, 0, 7, 160, 33, 320, 2, 999];
    let offset = 0;
    for (let i = 0; offset < input.length; i++) {
      const size = sizes[i % sizes.length];
      parts.push(resampler.push(input.subarray(offset, offset + size)));
      offset += size;
    }
    parts.push(resampler.flush());
    const chunked = concat(parts);
    expect(chunked).toHaveLength(whole.length);
    let worst = 0;
    for (let i = 0; i < whole.length; i++) worst = Math.max(worst, Math.abs(chunked[i] - whole[i]));
    expect(worst).toBeLessThanOrEqual(1);
  });

  it.each(PAIRS)('%i -> %i Hz: writing into a caller-owned array gives the same samples', (from, to) => {
    const input = sineWave(1100, from / 5, from, 9000);
    const fresh = new Resampler(from, to);
    const reused = new Resampler(from, to);
    const scratch = new Int16Array(reused.maxOutput(160));
    for (let offset = 0; offset < input.length; offset += 160) {
      const frame = input.subarray(offset, offset + 160);
      const into = reused.push(frame, scratch);
      expect(into.buffer).toBe(scratch.buffer);
      expect(Array.from(into)).toEqual(Array.from(fresh.push(frame)));
    }
  });

  it('refuses an output array shorter than maxOutput', () => {
    const resampler = new Resampler(8000, 16000);
    expect(() => resampler.push(new Int16Array(160), new Int16Array(100))).toThrow(RangeError);
  });

  it('holds back only the filter look-ahead while streaming 20 ms frames', () => {
    const resampler = new Resampler(8000, 16000);
    let produced = 0;
    for (let i = 0; i < 50; i++) produced += resampler.push(sineWave(1000, 160, 8000, 1000, i)).length;
    const held = 50 * 320 - produced;
    expect(held).toBeGreaterThan(0);
    expect(held).toBeLessThanOrEqual(32);
    expect(resampler.flush()).toHaveLength(held);
  });

  it('starts afresh after flush, so one resampler serves utterance after utterance', () => {
    const resampler = new Resampler(24000, 8000);
    const first = sineWave(1000, 480, 24000, 8000);
    const second = sineWave(300, 960, 24000, 5000);
    const a = concat([resampler.push(first), resampler.flush()]);
    const b = concat([resampler.push(second), resampler.flush()]);
    expect([...a]).toEqual([...resamplePcm16(first, 24000, 8000)]);
    expect([...b]).toEqual([...resamplePcm16(second, 24000, 8000)]);
  });

  it('forgets held input on reset', () => {
    const resampler = new Resampler(8000, 16000);
    resampler.push(sineWave(1000, 160, 8000, 9000));
    resampler.reset();
    expect(resampler.flush()).toHaveLength(0);
  });
});

describe('Resampler.pushBytes', () => {
  it.each([
    [24000, 8000],
    [8000, 16000],
    [8000, 8000],
  ])('resamples little-endian bytes as push resamples their samples (%i -> %i)', (from, to) => {
    const samples = sineWave(440, 4801, from, 12000).map((s, i) => (i % 97 === 0 ? -32768 : s));
    const bytes = Buffer.alloc(samples.length * 2 + 1);
    samples.forEach((s, i) => bytes.writeInt16LE(s, 1 + 2 * i));
    const bySamples = new Resampler(from, to);
    const byBytes = new Resampler(from, to);
    const intoOne = new Resampler(from, to);
    const room = new Int16Array(intoOne.maxOutput(samples.length) + samples.length);
    let used = 0;
    const expected: Int16Array[] = [];
    const actual: Int16Array[] = [];
    const shared: Int16Array[] = [];
    // Odd-aligned pieces of uneven sizes, as a network stream's chunks come.
    for (let at = 0, size = 1; at < samples.length; at += size, size = (size * 7 + 3) % 900 || 1) {
      const end = Math.min(samples.length, at + size);
      expected.push(bySamples.push(samples.slice(at, end)));
      actual.push(byBytes.pushBytes(bytes, 1 + 2 * at, 1 + 2 * end));
      const piece = intoOne.pushBytes(bytes, 1 + 2 * at, 1 + 2 * end, room, used);
      expect(piece.buffer).toBe(room.buffer);
      shared.push(piece);
      used += piece.length;
    }
    expected.push(bySamples.flush());
    actual.push(byBytes.flush());
    shared.push(intoOne.flush());
    expect(concat(actual)).toEqual(concat(expected));
    // Pieces written into one array stay as they were written.
    expect(concat(shared)).toEqual(concat(expected));
  });
});
