// Stand-ins for speech in the voice benchmark: voiced audio with a syllable rhythm, loud enough for the voice
// activity detector, whose every 20 ms frame stays clearly above silence so the benchmark can tell "the agent
// is speaking" from "the agent sent filler silence" by level alone.
import {
  clampSample,
  FRAME_MS,
  levelDbfs,
  MULAW_FRAME_BYTES,
  MULAW_SILENCE,
  mulawDecode,
  mulawEncode,
  pcm16FromBuffer,
  seededRandom,
  TELEPHONY_SAMPLE_RATE,
} from '@vap/media';

export interface SpeechLikeOptions {
  /** RMS level of the result (default -18 dBFS, a normal speaking level). */
  dbfs?: number;
  /** Seed of the breath noise mixed in, so every run produces the same samples. */
  seed?: number;
  /** Fundamental of the voice in Hz (default 140). */
  pitchHz?: number;
}

// Syllables arrive at about 4 per second; the envelope dips to 35 % between them but never to silence.
const SYLLABLE_HZ = 4;
const ENVELOPE_FLOOR = 0.35;
const HARMONICS = 8;
const NOISE_SHARE = 0.08;

/**
 * `seconds` of PCM16 mono at `sampleRate`: a voiced buzz (fundamental and harmonics falling off as 1/k, all
 * under 1.2 kHz so they survive the 8 kHz telephone band) with a little vibrato, shaped by a syllable-rate
 * envelope and mixed with a little noise, scaled to the requested RMS level.
 */
export function speechLikePcm(
  seconds: number,
  sampleRate: number,
  options: SpeechLikeOptions = {},
): Int16Array {
  const count = Math.round(seconds * sampleRate);
  const random = seededRandom(options.seed ?? 1);
  const pitch = options.pitchHz ?? 140;
  const raw = new Float64Array(count);
  let phase = 0;
  let sumSquares = 0;
  for (let n = 0; n < count; n++) {
    const t = n / sampleRate;
    // Vibrato of +-3 % at 5 Hz keeps the harmonics from sounding like a test tone.
    phase += (2 * Math.PI * pitch * (1 + 0.03 * Math.sin(2 * Math.PI * 5 * t))) / sampleRate;
    let voiced = 0;
    for (let k = 1; k <= HARMONICS; k++) voiced += Math.sin(k * phase) / k;
    const envelope =
      ENVELOPE_FLOOR + (1 - ENVELOPE_FLOOR) * (0.5 + 0.5 * Math.sin(2 * Math.PI * SYLLABLE_HZ * t));
    const value = envelope * (voiced + NOISE_SHARE * (random() * 2 - 1) * HARMONICS);
    raw[n] = value;
    sumSquares += value * value;
  }
  const targetRms = 32768 * Math.pow(10, (options.dbfs ?? -18) / 20);
  const gain = count > 0 && sumSquares > 0 ? targetRms / Math.sqrt(sumSquares / count) : 0;
  const out = new Int16Array(count);
  for (let n = 0; n < count; n++) out[n] = clampSample(raw[n] * gain);
  return out;
}

/** Little-endian bytes of PCM16 samples, as OpenAI-compatible speech servers send `pcm`. */
export function pcm16LeBytes(samples: Int16Array): Buffer {
  const out = Buffer.allocUnsafe(samples.length * 2);
  for (let i = 0; i < samples.length; i++) out.writeInt16LE(samples[i], i * 2);
  return out;
}

/** The caller's side of a carrier stream: 20 ms mu-law frames of speech, and the silence frame between turns. */
export interface CallerAudio {
  speechFrames: Buffer[];
  silenceFrame: Buffer;
  /**
   * The last speech frame with sound in it (speech may end in quiet frames); the last frame when absent. The
   * caller notes when it sent this one: the end of its turn as a provider hears it.
   */
  lastVoicedFrame?: number;
}

/** A sample louder than this (of 32767) is sound; digital silence, and mu-law's lowest steps, are not. */
export const VOICED_PEAK = 64;

/** The largest absolute sample of `pcm`. */
export function peakOf(pcm: Int16Array): number {
  let peak = 0;
  for (const sample of pcm) peak = Math.max(peak, Math.abs(sample));
  return peak;
}

/**
 * Given speech (8 kHz PCM16, e.g. the offline engine's speech of a text, which the fake providers' recognisers
 * read back) as the caller's turn: 20 ms mu-law frames up to its last voiced one (the quiet tail dropped).
 */
export function callerAudioOf(pcm: Int16Array): CallerAudio {
  const frameSamples = (TELEPHONY_SAMPLE_RATE * FRAME_MS) / 1000;
  const speechFrames: Buffer[] = [];
  let lastVoicedFrame = -1;
  for (let at = 0; at + frameSamples <= pcm.length; at += frameSamples) {
    const frame = mulawEncode(pcm.subarray(at, at + frameSamples));
    if (peakOf(mulawDecode(frame)) > VOICED_PEAK) lastVoicedFrame = speechFrames.length;
    speechFrames.push(frame);
  }
  if (lastVoicedFrame < 0) throw new Error('the caller audio has no sound in it');
  return {
    speechFrames: speechFrames.slice(0, lastVoicedFrame + 1),
    silenceFrame: Buffer.alloc(MULAW_FRAME_BYTES, MULAW_SILENCE),
    lastVoicedFrame,
  };
}

/** `seconds` of loud speech-like caller audio cut into 160-byte mu-law frames (8 kHz, 20 ms). */
export function callerAudio(seconds: number, dbfs = -15, seed = 7): CallerAudio {
  const frameSamples = (TELEPHONY_SAMPLE_RATE * FRAME_MS) / 1000;
  const frames = Math.max(1, Math.round((seconds * 1000) / FRAME_MS));
  const pcm = speechLikePcm((frames * FRAME_MS) / 1000, TELEPHONY_SAMPLE_RATE, { dbfs, seed, pitchHz: 190 });
  const speechFrames: Buffer[] = [];
  for (let i = 0; i < frames; i++) {
    speechFrames.push(mulawEncode(pcm.subarray(i * frameSamples, (i + 1) * frameSamples)));
  }
  return { speechFrames, silenceFrame: Buffer.alloc(MULAW_FRAME_BYTES, MULAW_SILENCE) };
}

/**
 * Frames quieter than this are filler, not speech. Speech-like audio sits near -18 dBFS even at its envelope's
 * floor; mu-law silence decodes to 0, and the lowest mu-law steps are far below -60 dBFS.
 */
export const SPEECH_FRAME_MIN_DBFS = -50;

/** True when a mu-law frame carries speech rather than filler silence. */
export function isSpeechFrame(mulaw: Uint8Array): boolean {
  return levelDbfs(mulawDecode(mulaw)) > SPEECH_FRAME_MIN_DBFS;
}

/** The browser protocol's audio rate: PCM16 little-endian mono at 16 kHz (docs/voice.md, Browser stream protocol). */
export const BROWSER_SAMPLE_RATE = 16_000;

/**
 * A caller's 20 ms mu-law frame (8 kHz) as a browser client sends it: PCM16 LE at 16 kHz, 640 bytes, each
 * sample interpolated halfway to the next (the last one repeated), which keeps its level and its speech rhythm.
 */
export function browserFrameFromMulaw(mulaw: Uint8Array): Buffer {
  const pcm = mulawDecode(mulaw);
  const out = Buffer.allocUnsafe(pcm.length * 4);
  for (let i = 0; i < pcm.length; i++) {
    const next = i + 1 < pcm.length ? pcm[i + 1] : pcm[i];
    out.writeInt16LE(pcm[i], i * 4);
    out.writeInt16LE(clampSample((pcm[i] + next) / 2), i * 4 + 2);
  }
  return out;
}

/** True when a browser audio message (PCM16 LE) carries speech rather than filler silence. */
export function isPcm16SpeechFrame(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && levelDbfs(pcm16FromBuffer(bytes)) > SPEECH_FRAME_MIN_DBFS;
}
