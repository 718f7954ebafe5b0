import {
  TELEPHONY_SAMPLE_RATE,
  clampSample,
  encodeTextSignal,
  mixUnder,
  seededRandom,
  sineWave,
  textSignalDurationMs,
} from '@vap/media';

/** How the simulated callee's lines become audio: PCM16 mono at 8 kHz, readable by the offline STT. */
export interface CalleeVoice {
  speak(text: string): Promise<Int16Array>;
}

const SAMPLE_RATE = TELEPHONY_SAMPLE_RATE;
/** About 3.3 words a second, like the offline TTS voices. */
const MS_PER_WORD = 300;
/** Voiced level of the speech-like carrier, in dBFS RMS (telephone speech sits around -30 to -15). */
const SPEECH_LEVEL_DBFS = -20;
const PITCH_HZ = 190;
/** Lines said again are not rendered again; the scripts have a few dozen lines at most. */
const CACHE_SIZE = 32;

/**
 * The callee's voice until offline TTS is available to the calls service: a voiced, syllable-shaped buzz
 * (energy under 2.4 kHz, so the voice service's VAD hears speech) with the line's text mixed under it as
 * the offline modem's signal, which the voice service's offline STT reads back exactly.
 */
export class ModemCalleeVoice implements CalleeVoice {
  private readonly cache = new Map<string, Int16Array>();

  async speak(text: string): Promise<Int16Array> {
    const cached = this.cache.get(text);
    if (cached) return cached;
    const words = text.split(/\s+/).filter(Boolean).length;
    // Speech at least as long as the data signal, so the text never outlasts the voice that carries it.
    const ms = Math.max(words * MS_PER_WORD, textSignalDurationMs(text) + 100);
    const pcm = mixUnder(
      voicedBuzz(Math.round((ms * SAMPLE_RATE) / 1000), words, hashOf(text)),
      encodeTextSignal(text, { sampleRate: SAMPLE_RATE }),
      SAMPLE_RATE,
    );
    if (this.cache.size >= CACHE_SIZE) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(text, pcm);
    return pcm;
  }
}

/** Harmonics of a slowly wandering pitch, shaped into one syllable-like swell per ~200 ms. */
function voicedBuzz(count: number, words: number, seed: number): Int16Array {
  const random = seededRandom(seed);
  const out = new Int16Array(count);
  const syllables = Math.max(2, words * 2);
  const amplitude = 32768 * Math.pow(10, SPEECH_LEVEL_DBFS / 20) * 1.6;
  let phase = 0;
  let pitch = PITCH_HZ;
  for (let n = 0; n < count; n++) {
    if (n % 400 === 0) pitch = PITCH_HZ * (0.85 + 0.3 * random());
    phase += (2 * Math.PI * pitch) / SAMPLE_RATE;
    const position = (n / count) * syllables;
    const envelope = 0.35 + 0.65 * Math.pow(Math.sin(Math.PI * (position % 1)), 2);
    let sample = 0;
    for (let h = 1; h <= 8; h++) sample += Math.sin(h * phase) / h;
    out[n] = clampSample(amplitude * envelope * sample * 0.5);
  }
  return out;
}

function hashOf(text: string): number {
  let hash = 2166136261;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619);
  return hash >>> 0;
}

/** An answering machine's beep: 1 kHz for 400 ms. */
export function answeringMachineBeep(): Int16Array {
  return sineWave(1000, (SAMPLE_RATE * 400) / 1000, SAMPLE_RATE, 10_000);
}
