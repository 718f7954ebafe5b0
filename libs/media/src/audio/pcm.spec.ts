import {
  SILENCE_DBFS,
  applyGain,
  clampSample,
  levelDbfs,
  mixPcm16,
  pcm16FromBuffer,
  pcm16ToBuffer,
  rms,
} from './pcm';
import { sineWave } from './signals';

describe('PCM16 buffers', () => {
  it('reads little-endian samples and writes them back', () => {
    const bytes = Buffer.from([0x01, 0x00, 0xff, 0xff, 0x00, 0x80, 0xff, 0x7f]);
    const samples = pcm16FromBuffer(bytes);
    expect([...samples]).toEqual([1, -1, -32768, 32767]);
    expect(pcm16ToBuffer(samples).equals(bytes)).toBe(true);
  });

  it('reads a buffer at an odd offset (copying) and ignores a trailing odd byte', () => {
    const backing = Buffer.from([0x99, 0x34, 0x12, 0xcc, 0xff, 0x42]);
    expect([...pcm16FromBuffer(backing.subarray(1))]).toEqual([0x1234, -52]);
    expect(pcm16FromBuffer(Buffer.from([1, 0, 2]))).toHaveLength(1);
  });
});

describe('clampSample', () => {
  it('rounds and clips to the PCM16 range', () => {
    expect(clampSample(40000)).toBe(32767);
    expect(clampSample(-40000)).toBe(-32768);
    expect(clampSample(12.6)).toBe(13);
    expect(clampSample(-12.4)).toBe(-12);
  });
});

describe('applyGain', () => {
  it('scales with clipping, in place unless an output is given', () => {
    const samples = Int16Array.from([1000, -1000, 20000, -20000]);
    const half = applyGain(samples, 0.5, new Int16Array(4));
    expect([...half]).toEqual([500, -500, 10000, -10000]);
    expect(samples[0]).toBe(1000);
    expect(applyGain(samples, 2)).toBe(samples);
    expect([...samples]).toEqual([2000, -2000, 32767, -32768]);
    expect([...applyGain(Int16Array.from([123]), 0)]).toEqual([0]);
  });
});

describe('mixPcm16', () => {
  it('adds two streams with clipping, the shorter one silent past its end', () => {
    const a = Int16Array.from([100, 30000, -30000, 5]);
    const b = Int16Array.from([50, 10000, -10000]);
    expect([...mixPcm16(a, b)]).toEqual([150, 32767, -32768, 5]);
    expect([...mixPcm16(b, a)]).toEqual([150, 32767, -32768, 5]);
  });

  it('scales the second stream and can mix in place', () => {
    const a = Int16Array.from([100, 200]);
    expect(mixPcm16(a, Int16Array.from([1000, -1000]), 0.1, a)).toBe(a);
    expect([...a]).toEqual([200, 100]);
  });
});

describe('levels', () => {
  it('measures RMS and dBFS', () => {
    expect(rms(Int16Array.from([3, -3, 3, -3]))).toBe(3);
    expect(rms(new Int16Array(0))).toBe(0);
    // A full-scale sine is 3 dB below a full-scale square.
    expect(levelDbfs(sineWave(1000, 8000, 8000, 32767))).toBeCloseTo(-3.01, 1);
    expect(levelDbfs(sineWave(1000, 8000, 8000, 3277))).toBeCloseTo(-23.01, 1);
    expect(levelDbfs(new Int16Array(160))).toBe(SILENCE_DBFS);
  });
});
