// Synthetic test signals: tones stand in for speech in benchmarks, simulated callers and specs.

import { clampSample } from './pcm';

/** A PCM16 sine of `hz` lasting `count` samples, peak `amplitude`, starting at phase `phase` (radians). */
export function sineWave(
  hz: number,
  count: number,
  sampleRate = 8000,
  amplitude = 8000,
  phase = 0,
): Int16Array {
  const out = new Int16Array(count);
  const step = (2 * Math.PI * hz) / sampleRate;
  for (let n = 0; n < count; n++) out[n] = clampSample(amplitude * Math.sin(phase + step * n));
  return out;
}

/** Sign changes across the samples (zero samples take the previous sign); a tone of f Hz has ~2f per second. */
export function countZeroCrossings(samples: Int16Array): number {
  let crossings = 0;
  let previous = 0;
  for (let i = 0; i < samples.length; i++) {
    const sign = Math.sign(samples[i]);
    if (sign === 0) continue;
    if (previous !== 0 && sign !== previous) crossings++;
    previous = sign;
  }
  return crossings;
}

/** Deterministic PRNG (mulberry32) in [0, 1): the same seed gives the same signal on every host. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Uniform white noise with an RMS level of `dbfs`, deterministic for a seed. */
export function whiteNoise(count: number, dbfs: number, seed = 1): Int16Array {
  const random = seededRandom(seed);
  // A uniform distribution on [-a, a] has RMS a / sqrt(3).
  const peak = 32768 * Math.pow(10, dbfs / 20) * Math.sqrt(3);
  const out = new Int16Array(count);
  for (let n = 0; n < count; n++) out[n] = clampSample((random() * 2 - 1) * peak);
  return out;
}
