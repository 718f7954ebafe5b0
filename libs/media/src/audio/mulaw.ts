// G.711 mu-law, the carriers' media-stream codec (8 kHz, one byte per sample). Both directions go through
// lookup tables built once, so per-frame work is one table read per sample and no allocation beyond the output.

const BIAS = 0x84;
const CLIP = 32635;

/** The mu-law byte for digital silence (PCM 0). */
export const MULAW_SILENCE = 0xff;

function encodeSlow(sample: number): number {
  let s = sample;
  const sign = s < 0 ? 0x80 : 0;
  if (sign) s = -s;
  if (s > CLIP) s = CLIP;
  s += BIAS;
  let exponent = 7;
  for (let mask = 0x4000; (s & mask) === 0 && exponent > 0; mask >>= 1) exponent--;
  const mantissa = (s >> (exponent + 3)) & 0x0f;
  return ~(sign | (exponent << 4) | mantissa) & 0xff;
}

const DECODE = new Int16Array(256);
for (let byte = 0; byte < 256; byte++) {
  const u = ~byte & 0xff;
  const magnitude = ((((u & 0x0f) << 3) + BIAS) << ((u >> 4) & 0x07)) - BIAS;
  DECODE[byte] = u & 0x80 ? -magnitude : magnitude;
}

// Indexed by the sample's 16-bit two's-complement pattern (sample & 0xffff).
const ENCODE = new Uint8Array(65536);
for (let i = 0; i < 65536; i++) ENCODE[i] = encodeSlow(i >= 32768 ? i - 65536 : i);

/** One PCM16 sample to its mu-law byte. */
export function mulawEncodeSample(sample: number): number {
  return ENCODE[sample & 0xffff];
}

/** One mu-law byte to its PCM16 sample. */
export function mulawDecodeSample(byte: number): number {
  return DECODE[byte & 0xff];
}

/** Encodes PCM16 samples to mu-law; writes into `out` when given (it must hold pcm.length bytes). */
export function mulawEncode(pcm: Int16Array): Buffer;
export function mulawEncode<T extends Uint8Array>(pcm: Int16Array, out: T): T;
export function mulawEncode(pcm: Int16Array, out: Uint8Array = Buffer.allocUnsafe(pcm.length)): Uint8Array {
  if (out.length < pcm.length) throw new RangeError('mulawEncode: output shorter than input');
  for (let i = 0; i < pcm.length; i++) out[i] = ENCODE[pcm[i] & 0xffff];
  return out;
}

/** Decodes mu-law bytes to PCM16; writes into `out` when given (it must hold mulaw.length samples). */
export function mulawDecode(mulaw: Uint8Array, out: Int16Array = new Int16Array(mulaw.length)): Int16Array {
  if (out.length < mulaw.length) throw new RangeError('mulawDecode: output shorter than input');
  for (let i = 0; i < mulaw.length; i++) out[i] = DECODE[mulaw[i]];
  return out;
}
