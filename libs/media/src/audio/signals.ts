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
