// Keeps offline TTS speech out of the text modem's band: a linear-phase low-pass, and the mix of speech with
// the data signal under it.
import { mixPcm16 } from '../audio';

/** Speech is cut above this so the data tones (2800/3200 Hz) have the band to themselves. */
export const SPEECH_CUTOFF_HZ = 2400;

// Taps per millisecond of the FIR: keeps the transition (~3.3 / length, Hamming) near 330 Hz at any rate, so
// speech is well down (> 50 dB) by the lower data tone.
const TAPS_PER_MS = 10;

const kernels = new Map<string, Float64Array>();

function kernel(sampleRate: number, cutoffHz: number): Float64Array {
  const key = `${sampleRate}/${cutoffHz}`;
  const cached = kernels.get(key);
  if (cached) return cached;
  const length = Math.round((sampleRate / 1000) * TAPS_PER_MS) | 1;
  const half = (length - 1) / 2;
  const fc = cutoffHz / sampleRate;
  const taps = new Float64Array(length);
  let sum = 0;
  for (let n = 0; n < length; n++) {
    const d = n - half;
    const sinc = d === 0 ? 2 * fc : Math.sin(2 * Math.PI * fc * d) / (Math.PI * d);
    taps[n] = sinc * (0.54 - 0.46 * Math.cos((2 * Math.PI * n) / (length - 1)));
    sum += taps[n];
  }
  // Unit gain at DC.
  for (let n = 0; n < length; n++) taps[n] /= sum;
  kernels.set(key, taps);
  return taps;
}

/**
 * Low-passes a whole clip of speech (windowed-sinc FIR, linear phase, delay compensated so the output lines up
 * with the input, same length). Meant for TTS output before the data signal is mixed under it.
 */
export function lowPassSpeech(pcm: Int16Array, sampleRate: number, cutoffHz = SPEECH_CUTOFF_HZ): Int16Array {
  const out = new Int16Array(pcm.length);
  lowPassSpeechRange(pcm, out, 0, pcm.length, sampleRate, cutoffHz);
  return out;
}

/**
 * The samples [from, to) of lowPassSpeech(pcm) written into the same indices of `out`: a long clip can be
 * filtered in slices (yielding between them, so a media thread is not stalled) with the same result.
 */
export function lowPassSpeechRange(
  pcm: Int16Array,
  out: Int16Array,
  from: number,
  to: number,
  sampleRate: number,
  cutoffHz = SPEECH_CUTOFF_HZ,
): void {
  if (!(cutoffHz > 0 && cutoffHz < sampleRate / 2)) {
    throw new RangeError(`lowPassSpeech: cutoff ${cutoffHz} Hz is outside (0, ${sampleRate / 2})`);
  }
  const taps = kernel(sampleRate, cutoffHz);
  const half = (taps.length - 1) / 2;
  const end = Math.min(to, pcm.length, out.length);
  for (let i = Math.max(0, from); i < end; i++) {
    const first = Math.max(0, i - half);
    const last = Math.min(pcm.length - 1, i + half);
    let acc = 0;
    for (let j = first; j <= last; j++) acc += pcm[j] * taps[j - i + half];
    out[i] = acc >= 32767 ? 32767 : acc <= -32768 ? -32768 : Math.round(acc);
  }
}

/**
 * Speech with the data signal under it: the speech is low-passed (cutoffHz) and the data added at the level it
 * was encoded with. The result lasts as long as the longer input; when the data outlasts the speech, the tail
 * is data over silence (TTS pads its speech with silence for that, see textSignalDurationMs).
 */
export function mixUnder(
  speech: Int16Array,
  data: Int16Array,
  sampleRate: number,
  cutoffHz = SPEECH_CUTOFF_HZ,
): Int16Array {
  return mixPcm16(lowPassSpeech(speech, sampleRate, cutoffHz), data);
}
