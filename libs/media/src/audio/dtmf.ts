// DTMF touch tones (ITU-T Q.23 frequencies), in telephony audio: the keypad, a generator of mu-law 8 kHz tones
// for sending keys in-band (carriers without a send-digits request), and a Goertzel detector that hears them in
// a call's audio (test carriers and the carrier simulator observe the agent's keys with it).
import { mulawDecode, mulawEncode } from './mulaw';

const RATE = 8000;
const LOW = [697, 770, 852, 941] as const;
const HIGH = [1209, 1336, 1477, 1633] as const;
const KEYPAD = ['123A', '456B', '789C', '*0#D'] as const;

/** The keys a tone exists for. */
export const DTMF_TONE_KEYS = '0123456789*#ABCD';

/** A keypad key: one of DTMF_TONE_KEYS (lowercase a-d read as A-D); null for anything else. */
export function dtmfKeyOf(value: unknown): string | null {
  if (typeof value !== 'string' || value.length !== 1) return null;
  const key = value.toUpperCase();
  return DTMF_TONE_KEYS.includes(key) ? key : null;
}

/** The key's row (low) and column (high) frequencies, Hz. */
export function dtmfFrequencies(key: string): { low: number; high: number } {
  const row = KEYPAD.findIndex((keys) => keys.includes(key));
  if (row < 0 || key.length !== 1) throw new RangeError(`not a DTMF key: ${JSON.stringify(key)}`);
  return { low: LOW[row], high: HIGH[KEYPAD[row].indexOf(key)] };
}

export interface DtmfToneTiming {
  /** Each tone, ms: Q.24 asks receivers to take 40 ms; 100 ms is what phones and carriers send. */
  toneMs: number;
  /** Silence after each tone, ms. */
  gapMs: number;
  /** What a `w` in the digits waits, ms. */
  pauseMs: number;
  /** Level of each of the two frequencies, dBFS (the pair peaks 6 dB higher). */
  levelDbfs: number;
}

export const DTMF_TONE_TIMING: DtmfToneTiming = { toneMs: 100, gapMs: 60, pauseMs: 500, levelDbfs: -10 };

/** The most digits dtmfTones renders at once (a menu choice or an account number, not a recording). */
export const DTMF_TONES_MAX_DIGITS = 64;

/**
 * The tones for `digits` (keys, and `w` for a pause) as mu-law 8 kHz, whole 20 ms frames (silence pads the end).
 * Throws on anything else, or more than DTMF_TONES_MAX_DIGITS characters.
 */
export function dtmfTones(digits: string, timing: DtmfToneTiming = DTMF_TONE_TIMING): Buffer {
  if (digits.length === 0 || digits.length > DTMF_TONES_MAX_DIGITS)
    throw new RangeError(`dtmfTones: 1 to ${DTMF_TONES_MAX_DIGITS} digits`);
  const toneSamples = Math.round((timing.toneMs * RATE) / 1000);
  const gapSamples = Math.round((timing.gapMs * RATE) / 1000);
  const pauseSamples = Math.round((timing.pauseMs * RATE) / 1000);
  const amplitude = 32767 * 10 ** (timing.levelDbfs / 20);
  const parts: number[][] = [];
  let total = 0;
  for (const char of digits) {
    if (char === 'w') {
      total += pauseSamples;
      parts.push([0, pauseSamples]);
      continue;
    }
    const { low, high } = dtmfFrequencies(char);
    parts.push([low, high]);
    total += toneSamples + gapSamples;
  }
  const frame = RATE / 50;
  const pcm = new Int16Array(Math.ceil(total / frame) * frame);
  let at = 0;
  for (const [low, high] of parts) {
    if (low === 0) {
      at += high;
      continue;
    }
    for (let i = 0; i < toneSamples; i++) {
      const t = i / RATE;
      // A few ms of ramp at each end keep the tone's edges from splashing into other frequencies.
      const ramp = Math.min(1, i / 40, (toneSamples - 1 - i) / 40);
      pcm[at + i] = Math.round(
        ramp * amplitude * (Math.sin(2 * Math.PI * low * t) + Math.sin(2 * Math.PI * high * t)),
      );
    }
    at += toneSamples + gapSamples;
  }
  return mulawEncode(pcm);
}

/** Goertzel power of `frequency` over `samples` (normalised by the block's length). */
function goertzel(samples: Float64Array, frequency: number): number {
  const coefficient = 2 * Math.cos((2 * Math.PI * frequency) / RATE);
  let s1 = 0;
  let s2 = 0;
  for (let i = 0; i < samples.length; i++) {
    const s0 = samples[i] + coefficient * s1 - s2;
    s2 = s1;
    s1 = s0;
  }
  return (s1 * s1 + s2 * s2 - coefficient * s1 * s2) / samples.length;
}

/** 20 ms blocks: long enough to tell neighbouring rows apart (~50 Hz resolution), short against a 40 ms tone. */
const BLOCK = 160;
/** A tone counts when its pair carries this share of the block's energy (speech spreads it out). */
const TONE_SHARE = 0.6;
/** Each of the pair at least this fraction of the other (Q.24 twist: within 8 dB or so). */
const MAX_TWIST = 0.15;
/** Quieter blocks are silence, whatever their spectrum. */
const MIN_BLOCK_POWER = 1e4;

/**
 * Hears DTMF keys in mu-law 8 kHz audio fed in any chunking. A key is reported once, when two blocks in a row
 * (40 ms) carry its tone pair; it can repeat only after a block without it. Memory is one block.
 */
export class DtmfDetector {
  private readonly block = new Float64Array(BLOCK);
  private filled = 0;
  private candidate: string | null = null;
  private held: string | null = null;

  constructor(private readonly onKey: (key: string) => void) {}

  /** Feeds mu-law audio. */
  push(mulaw: Uint8Array): void {
    const pcm = mulawDecode(mulaw);
    for (let i = 0; i < pcm.length; i++) {
      this.block[this.filled++] = pcm[i];
      if (this.filled === BLOCK) {
        this.filled = 0;
        this.judge(this.keyOfBlock());
      }
    }
  }

  private judge(key: string | null): void {
    if (key === null) {
      this.candidate = null;
      this.held = null;
      return;
    }
    if (key === this.held) return;
    if (key === this.candidate) {
      this.held = key;
      this.candidate = null;
      this.onKey(key);
      return;
    }
    this.candidate = key;
  }

  private keyOfBlock(): string | null {
    let energy = 0;
    for (let i = 0; i < BLOCK; i++) energy += this.block[i] * this.block[i];
    // Parseval: a tone of power p shows as about p*N/2 in the normalised Goertzel sum over N samples.
    const total = (energy / BLOCK) * (BLOCK / 2);
    if (energy / BLOCK < MIN_BLOCK_POWER) return null;
    const lows = LOW.map((f) => goertzel(this.block, f));
    const highs = HIGH.map((f) => goertzel(this.block, f));
    const row = argmax(lows);
    const column = argmax(highs);
    const low = lows[row];
    const high = highs[column];
    if (low < high * MAX_TWIST || high < low * MAX_TWIST) return null;
    if (low + high < total * TONE_SHARE) return null;
    return KEYPAD[row][column];
  }
}

function argmax(values: number[]): number {
  let best = 0;
  for (let i = 1; i < values.length; i++) if (values[i] > values[best]) best = i;
  return best;
}

/** Every key heard in a stretch of mu-law audio, in order. */
export function detectDtmf(mulaw: Uint8Array): string {
  let keys = '';
  const detector = new DtmfDetector((key) => (keys += key));
  detector.push(mulaw);
  return keys;
}
