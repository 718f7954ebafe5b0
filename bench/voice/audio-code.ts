// The scripted caller's words, carried in its audio: the first samples of every speech frame hold a code (a
// marker, then the call's number and the script piece's number, then a check), so the fake STT answers from the
// uploaded audio alone, as a real one would, and a transcription of part of an utterance (the voice service
// speculates at pauses) answers just the pieces heard so far. Mu-law decoding is exact, and the voice service
// uploads the caller's samples as they came (8 kHz WAV), so the code survives the trip unchanged. The decoding
// runs in the fake's process; the voice service only sees 1 ms of clicks per 20 ms frame of speech-like audio.
import { mulawDecodeSample } from '@vap/media';

/** Which call said it and which piece of the script it is. */
export interface AudioCode {
  call: number;
  piece: number;
}

/** Samples the code takes at the start of a frame. */
export const CODE_SAMPLES = 8;
/** Calls and pieces a code can number. */
export const MAX_CODED_CALLS = 4096;
export const MAX_CODED_PIECES = 256;

// The marker: full scale positive then full scale negative, which no band-limited speech or noise at a sane level
// produces in two consecutive samples.
const MARKER_BYTES = [0x80, 0x00] as const;
const MARKER = MARKER_BYTES.map(mulawDecodeSample);
// Nibbles as mu-law bytes 0x20-0x2f: sixteen distinct, non-zero samples (mu-law has two zeros, so 0x7f and 0xff
// could not be told apart).
const NIBBLE_BYTE = 0x20;
const NIBBLE_OF = new Map<number, number>(
  Array.from({ length: 16 }, (_, n) => [mulawDecodeSample(NIBBLE_BYTE + n), n]),
);
const CHECK_SALT = 0x5;

function nibblesOf(code: AudioCode): number[] {
  return [code.call >> 8, (code.call >> 4) & 15, code.call & 15, code.piece >> 4, code.piece & 15];
}

function checkOf(nibbles: readonly number[]): number {
  return nibbles.reduce((x, n) => x ^ n, CHECK_SALT);
}

/** A copy of a mu-law frame with `code` written over its first CODE_SAMPLES samples. */
export function markFrame(frame: Uint8Array, code: AudioCode): Buffer {
  if (frame.length < CODE_SAMPLES) throw new RangeError(`markFrame: a frame of ${frame.length} samples`);
  if (!(code.call >= 0 && code.call < MAX_CODED_CALLS && code.piece >= 0 && code.piece < MAX_CODED_PIECES)) {
    throw new RangeError(`markFrame: call ${code.call} / piece ${code.piece} out of range`);
  }
  const out = Buffer.from(frame);
  const nibbles = nibblesOf(code);
  out[0] = MARKER_BYTES[0];
  out[1] = MARKER_BYTES[1];
  nibbles.forEach((n, i) => (out[2 + i] = NIBBLE_BYTE + n));
  out[2 + nibbles.length] = NIBBLE_BYTE + checkOf(nibbles);
  return out;
}

/** The distinct codes in decoded PCM16 audio, in the order first heard (at any sample offset). */
export function readCodes(pcm: Int16Array): AudioCode[] {
  const codes: AudioCode[] = [];
  const seen = new Set<number>();
  const nibbles = new Array<number>(5);
  for (let i = 0; i + CODE_SAMPLES <= pcm.length; i++) {
    if (pcm[i] !== MARKER[0] || pcm[i + 1] !== MARKER[1]) continue;
    let valid = true;
    for (let k = 0; k < 5 && valid; k++) {
      const n = NIBBLE_OF.get(pcm[i + 2 + k]);
      if (n === undefined) valid = false;
      else nibbles[k] = n;
    }
    if (!valid || NIBBLE_OF.get(pcm[i + 7]) !== checkOf(nibbles)) continue;
    const code = {
      call: (nibbles[0] << 8) | (nibbles[1] << 4) | nibbles[2],
      piece: (nibbles[3] << 4) | nibbles[4],
    };
    const key = code.call * MAX_CODED_PIECES + code.piece;
    if (!seen.has(key)) {
      seen.add(key);
      codes.push(code);
    }
    i += CODE_SAMPLES - 1;
  }
  return codes;
}
