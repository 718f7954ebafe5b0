// Background ambience (background_audio_id / background_audio_volume): a loop mixed under the agent's speech for
// the whole call, and a synthetic "office" bed so the platform ships ambience without binary assets.

import { clampSample, mixPcm16 } from './pcm';
import { seededRandom } from './signals';

/** Crossfade applied at the loop seam so the wrap-around does not click, in ms at 8 kHz. */
export const AMBIENCE_SEAM_MS = 20;

/**
 * Plays PCM16 audio in an endless loop at a volume. The last AMBIENCE_SEAM_MS of the clip are crossfaded into its
 * start once, up front, so the loop is seamless whatever the clip; per frame it is a copy and a multiply.
 */
export class AmbienceLoop {
  private readonly loop: Int16Array;
  private position = 0;
  /** Reused by mixUnder so mixing a frame allocates nothing. */
  private scratch = new Int16Array(0);

  constructor(
    clip: Int16Array,
    /** 0 = silent, 1 = as recorded. */
    public volume = 1,
    sampleRate = 8000,
  ) {
    if (clip.length === 0) throw new RangeError('AmbienceLoop: empty clip');
    const fade = Math.min(Math.round((sampleRate * AMBIENCE_SEAM_MS) / 1000), clip.length >> 1);
    this.loop = clip.slice(0, clip.length - fade);
    const tail = clip.length - fade;
    for (let i = 0; i < fade; i++) {
      const t = (i + 0.5) / fade;
      this.loop[i] = clampSample(clip[i] * t + clip[tail + i] * (1 - t));
    }
  }

  /** Samples in one pass of the loop (the clip minus the crossfaded seam). */
  get length(): number {
    return this.loop.length;
  }

  /** The next `count` samples at the current volume; writes into `out` when given. */
  next(count: number, out: Int16Array = new Int16Array(count)): Int16Array {
    if (out.length < count) throw new RangeError('AmbienceLoop.next: output shorter than count');
    const { loop, volume } = this;
    let position = this.position;
    for (let i = 0; i < count; i++) {
      out[i] = clampSample(loop[position] * volume);
      if (++position === loop.length) position = 0;
    }
    this.position = position;
    return out;
  }

  /** Mixes the next speech.length samples of ambience under `speech` (in place by default). */
  mixUnder(speech: Int16Array, out: Int16Array = speech): Int16Array {
    if (this.scratch.length < speech.length) this.scratch = new Int16Array(speech.length);
    const bed = this.next(speech.length, this.scratch).subarray(0, speech.length);
    return mixPcm16(speech, bed, 1, out);
  }
}

export interface OfficeAmbienceOptions {
  seconds?: number;
  sampleRate?: number;
  seed?: number;
  /** RMS level of the result, in dBFS. */
  levelDbfs?: number;
}

/**
 * A synthetic office bed: low-passed noise (room air and distant voices) over a faint mains hum with harmonics,
 * with slow swells. Deterministic for a seed; normalised to `levelDbfs` RMS.
 */
export function synthesizeOfficeAmbience(options: OfficeAmbienceOptions = {}): Int16Array {
  const sampleRate = options.sampleRate ?? 8000;
  const count = Math.round((options.seconds ?? 10) * sampleRate);
  const random = seededRandom(options.seed ?? 1);
  const raw = new Float64Array(count);
  // Two one-pole low-passes at ~400 Hz shape the murmur; two slow sines (seeded, 0.1-0.5 Hz) make it swell.
  const murmurAlpha = 1 - Math.exp((-2 * Math.PI * 400) / sampleRate);
  const swells = [0, 1].map(() => ({ hz: 0.1 + random() * 0.4, phase: random() * 2 * Math.PI }));
  let murmur = 0;
  let murmur2 = 0;
  let sumSquares = 0;
  for (let n = 0; n < count; n++) {
    const white = random() * 2 - 1;
    murmur += (white - murmur) * murmurAlpha;
    murmur2 += (murmur - murmur2) * murmurAlpha;
    const t = n / sampleRate;
    const hum = 0.02 * Math.sin(2 * Math.PI * 120 * t) + 0.01 * Math.sin(2 * Math.PI * 240 * t);
    const swell =
      1 +
      0.3 * Math.sin(2 * Math.PI * swells[0].hz * t + swells[0].phase) +
      0.2 * Math.sin(2 * Math.PI * swells[1].hz * t + swells[1].phase);
    raw[n] = murmur2 * swell + hum;
    sumSquares += raw[n] * raw[n];
  }
  const out = new Int16Array(count);
  if (count === 0 || sumSquares === 0) return out;
  const target = 32768 * Math.pow(10, (options.levelDbfs ?? -35) / 20);
  const scale = target / Math.sqrt(sumSquares / count);
  for (let n = 0; n < count; n++) out[n] = clampSample(raw[n] * scale);
  return out;
}
