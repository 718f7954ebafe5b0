// Audio the fakes speak and listen to: the simulated callee's lines, the e2e's fake carriers and fake TTS. A fake
// caller or a fake TTS must produce something that (a) the platform's voice activity detector hears as speech and
// (b) carries its text in the offline text modem's band, so the platform's offline STT (or our fake cloud STT)
// reads back exactly what was said. A voiced buzz, amplitude modulated at a syllable rate and low-passed under the
// modem band, stands in for the voice.
import {
  clampSample,
  encodeTextSignal,
  levelDbfs,
  mixUnder,
  rms,
  TextSignalDecoder,
  textSignalDurationMs,
} from '@vap/media';

/** Fundamental of the buzz, Hz: a low adult voice. */
const PITCH_HZ = 120;
/** Harmonics summed into the buzz (up to ~2.2 kHz, under the modem band at 2.8 kHz). */
const HARMONICS = 18;
/** Syllables per second of the envelope. */
const SYLLABLE_HZ = 4;
/** RMS level of the voice part, dBFS: ordinary telephone speech, well above the -40 dBFS VAD threshold. */
export const SPEECH_LEVEL_DBFS = -20;
/** Speech beyond the data signal, so the signal's last bits are not at the utterance's very edge. */
const TAIL_MS = 120;

export interface SpokenAudioOptions {
  sampleRate?: number;
  /** RMS level of the voice part (the data signal stays at the modem's own level under it). */
  levelDbfs?: number;
  /** Shortest duration, ms (the voice is padded to at least the data signal's length anyway). */
  minMs?: number;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

const cycles = new Map<number, Float64Array>();

/**
 * The harmonic sum over the samples after which it repeats exactly (sampleRate / gcd(sampleRate, PITCH_HZ): 200
 * at 8 and 24 kHz). Summing the harmonics for every sample instead took most of a second per sentence at 24 kHz,
 * long enough for a fake TTS on a loaded machine to miss a provider deadline it was not meant to test.
 */
function harmonicCycle(sampleRate: number): Float64Array {
  let cycle = cycles.get(sampleRate);
  if (!cycle) {
    cycle = new Float64Array(sampleRate / gcd(sampleRate, PITCH_HZ));
    for (let n = 0; n < cycle.length; n++) {
      let s = 0;
      for (let h = 1; h <= HARMONICS; h++) {
        if (h * PITCH_HZ >= sampleRate / 2) break;
        s += Math.sin((2 * Math.PI * PITCH_HZ * h * n) / sampleRate + h) / h;
      }
      cycle[n] = s;
    }
    cycles.set(sampleRate, cycle);
  }
  return cycle;
}

/** Voice-like PCM16 of `ms` at `sampleRate`: a harmonic buzz with a syllable envelope that never falls silent. */
export function voiceBuzz(ms: number, sampleRate = 8000, level = SPEECH_LEVEL_DBFS): Int16Array {
  const count = Math.round((ms * sampleRate) / 1000);
  const raw = new Float64Array(count);
  const cycle = harmonicCycle(sampleRate);
  for (let n = 0; n < count; n++) {
    // 0.55..1: syllables without gaps, so one utterance is one turn for the VAD.
    const envelope = 0.775 + 0.225 * Math.sin((2 * Math.PI * SYLLABLE_HZ * n) / sampleRate);
    raw[n] = cycle[n % cycle.length] * envelope;
  }
  let sum = 0;
  for (const v of raw) sum += v * v;
  const current = Math.sqrt(sum / Math.max(1, count));
  const target = 32768 * Math.pow(10, level / 20);
  const gain = current > 0 ? target / current : 0;
  const out = new Int16Array(count);
  for (let n = 0; n < count; n++) out[n] = clampSample(raw[n] * gain);
  return out;
}

const SPOKEN_CACHE_ENTRIES = 64;
const spoken = new Map<string, Int16Array>();

/**
 * PCM16 of someone saying `text`: the voice buzz with the offline modem's text signal under it (the same layering
 * the platform's offline TTS uses), so offline STT decodes exactly `text`.
 */
export function spokenAudio(text: string, options: SpokenAudioOptions = {}): Int16Array {
  const sampleRate = options.sampleRate ?? 8000;
  const level = options.levelDbfs ?? SPEECH_LEVEL_DBFS;
  const key = JSON.stringify([text, sampleRate, level, options.minMs ?? 0]);
  let clip = spoken.get(key);
  if (clip) {
    spoken.delete(key);
  } else {
    const data = encodeTextSignal(text, { sampleRate });
    const ms = Math.max(options.minMs ?? 0, textSignalDurationMs(text) + TAIL_MS);
    clip = mixUnder(voiceBuzz(ms, sampleRate, level), data, sampleRate);
  }
  // Intros, apologies and the callers' lines repeat across a suite's calls: each is rendered once.
  spoken.set(key, clip);
  while (spoken.size > SPOKEN_CACHE_ENTRIES) spoken.delete(spoken.keys().next().value as string);
  return clip.slice();
}

/** Texts carried by a whole clip (every frame of the text signal in it, in order). */
export function textsIn(pcm: Int16Array, sampleRate: number): string[] {
  return new TextSignalDecoder(sampleRate).push(pcm);
}

/** Level of a stretch of audio, dBFS (re-exported so specs need not know the media lib). */
export function audioLevelDbfs(pcm: Int16Array): number {
  return levelDbfs(pcm);
}

/** Fraction of `frameSamples`-long frames whose RMS is above `minRms`: how much of a clip carries sound. */
export function activeFraction(pcm: Int16Array, frameSamples = 160, minRms = 30): number {
  let active = 0;
  let frames = 0;
  for (let at = 0; at + frameSamples <= pcm.length; at += frameSamples) {
    frames++;
    if (rms(pcm.subarray(at, at + frameSamples)) > minRms) active++;
  }
  return frames === 0 ? 0 : active / frames;
}
