// PCM16 mono helpers: the in-process sample format between the codec, the resampler and the providers.
import { endianness } from 'node:os';

const LITTLE_ENDIAN_HOST = endianness() === 'LE';

/** Level reported for digital silence, so callers never handle -Infinity. */
export const SILENCE_DBFS = -100;

/** Rounds and clamps to the PCM16 range. */
export function clampSample(value: number): number {
  if (value >= 32767) return 32767;
  if (value <= -32768) return -32768;
  return Math.round(value);
}

/**
 * The samples of a little-endian PCM16 buffer. Shares the buffer's memory when it is 2-byte aligned on a
 * little-endian host (the usual case), otherwise copies. A trailing odd byte is ignored.
 */
export function pcm16FromBuffer(buf: Uint8Array): Int16Array {
  const count = buf.length >> 1;
  if (LITTLE_ENDIAN_HOST && buf.byteOffset % 2 === 0)
    return new Int16Array(buf.buffer, buf.byteOffset, count);
  const out = new Int16Array(count);
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  for (let i = 0; i < count; i++) out[i] = view.getInt16(i * 2, true);
  return out;
}

/** Little-endian bytes of PCM16 samples; shares memory on a little-endian host. */
export function pcm16ToBuffer(samples: Int16Array): Buffer {
  if (LITTLE_ENDIAN_HOST) return Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
  const out = Buffer.allocUnsafe(samples.length * 2);
  for (let i = 0; i < samples.length; i++) out.writeInt16LE(samples[i], i * 2);
  return out;
}

/** Scales samples by `gain` (1 = unchanged, 0 = silent, above 1 amplifies), clipping; in place by default. */
export function applyGain(samples: Int16Array, gain: number, out: Int16Array = samples): Int16Array {
  if (out.length < samples.length) throw new RangeError('applyGain: output shorter than input');
  for (let i = 0; i < samples.length; i++) out[i] = clampSample(samples[i] * gain);
  return out;
}

/**
 * Sums two streams sample by sample with clipping; the shorter one counts as silence past its end.
 * `gainB` scales the second stream (e.g. ambience under speech). `out` may be `a` to mix in place.
 */
export function mixPcm16(
  a: Int16Array,
  b: Int16Array,
  gainB = 1,
  out: Int16Array = new Int16Array(Math.max(a.length, b.length)),
): Int16Array {
  const length = Math.max(a.length, b.length);
  if (out.length < length) throw new RangeError('mixPcm16: output shorter than the longer input');
  for (let i = 0; i < length; i++) {
    out[i] = clampSample((i < a.length ? a[i] : 0) + (i < b.length ? b[i] * gainB : 0));
  }
  return out;
}

/** Root mean square of the samples (0 for none). */
export function rms(samples: Int16Array): number {
  if (samples.length === 0) return 0;
  let sum = 0;
  for (let i = 0; i < samples.length; i++) sum += samples[i] * samples[i];
  return Math.sqrt(sum / samples.length);
}

/** RMS level in dB relative to full scale (a full-scale square wave is 0); never below SILENCE_DBFS. */
export function levelDbfs(samples: Int16Array): number {
  const value = rms(samples);
  if (value === 0) return SILENCE_DBFS;
  return Math.max(SILENCE_DBFS, 20 * Math.log10(value / 32768));
}
