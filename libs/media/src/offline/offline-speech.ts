// Offline TTS: flite speech a person can understand, with its exact text carried underneath as the in-band
// text signal (text-modem.ts), so the offline STT reads back precisely what was said. Same text and options
// give the same samples, every time and on every machine (flite and the modem are both deterministic).
import { Resampler, applyGain, mixPcm16 } from '../audio';
import { FliteEngine, type FliteVoice } from './flite-engine';
import { lowPassSpeechRange } from './speech-band';
import { encodeTextSignal } from './text-modem';

/** Offline speech is produced at the carriers' rate. */
export const OFFLINE_SPEECH_SAMPLE_RATE = 8000;

export interface OfflineSpeechOptions {
  /** kal (male) by default, or slt (female). */
  voice?: FliteVoice;
  /** Speaking rate, 1 = normal; clamped to [0.5, 2]. */
  speed?: number;
  /** Gain on the speech, 1 = as synthesized; clamped to [0, 2]. The text signal keeps its level. */
  volume?: number;
}

/** Phrases kept ready: intros, reprompts and farewells repeat on every call. */
const CACHE_ENTRIES = 48;

const cache = new Map<string, Promise<Int16Array>>();
let engine: FliteEngine | undefined;

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

/**
 * Samples of DSP work done between yields to the event loop (100 ms of 8 kHz audio, well under 1 ms of CPU):
 * filtering a whole sentence at once would hold the thread for tens of ms, and the media plane's frame clock
 * runs on the same thread.
 */
const SLICE_SAMPLES = 800;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The clip at 8 kHz, resampled in slices (the streaming resampler gives the same samples as in one go). */
async function atCarrierRate(samples: Int16Array, sampleRate: number): Promise<Int16Array> {
  if (sampleRate === OFFLINE_SPEECH_SAMPLE_RATE) return samples;
  const resampler = new Resampler(sampleRate, OFFLINE_SPEECH_SAMPLE_RATE);
  const step = Math.ceil((SLICE_SAMPLES * sampleRate) / OFFLINE_SPEECH_SAMPLE_RATE);
  const parts: Int16Array[] = [];
  for (let at = 0; at < samples.length; at += step) {
    parts.push(resampler.push(samples.subarray(at, at + step)));
    await nextTurn();
  }
  parts.push(resampler.flush());
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

async function render(text: string, voice: FliteVoice, speed: number, volume: number): Promise<Int16Array> {
  // The signal is built first: text it cannot carry (over TEXT_SIGNAL_MAX_BYTES) fails before any synthesis.
  const data = encodeTextSignal(text, { sampleRate: OFFLINE_SPEECH_SAMPLE_RATE });
  let speech = new Int16Array(0);
  if (/[\p{L}\p{N}]/u.test(text)) {
    engine ??= new FliteEngine();
    const clip = await engine.synthesize({ text, voice, rate: speed });
    speech = await atCarrierRate(clip.samples, clip.sampleRate);
    if (volume !== 1) applyGain(speech, volume);
  }
  // The speech is low-passed out of the signal's band (as mixUnder does, in slices), then the signal is added;
  // when the signal outlasts the speech, the result runs to the signal's end over silence, so the whole frame
  // is always sent.
  const filtered = new Int16Array(speech.length);
  for (let at = 0; at < speech.length; at += SLICE_SAMPLES) {
    lowPassSpeechRange(speech, filtered, at, at + SLICE_SAMPLES, OFFLINE_SPEECH_SAMPLE_RATE);
    await nextTurn();
  }
  return mixPcm16(filtered, data);
}

/**
 * Speaks `text` offline: PCM16 mono at 8 kHz, flite speech low-passed under 2.4 kHz with the text signal
 * above it. Text with nothing to pronounce is the text signal alone. Rejects when flite fails.
 */
export async function synthesizeOfflineSpeech(
  text: string,
  options: OfflineSpeechOptions = {},
): Promise<Int16Array> {
  const voice = options.voice ?? 'kal';
  const speed = clamp(options.speed ?? 1, 0.5, 2);
  const volume = clamp(options.volume ?? 1, 0, 2);
  const key = `${voice}\u0000${speed}\u0000${volume}\u0000${text}`;
  let pending = cache.get(key);
  if (pending) {
    // Most recently used goes last; the first key is the one to evict.
    cache.delete(key);
  } else {
    pending = render(text, voice, speed, volume);
    pending.catch(() => cache.delete(key));
  }
  cache.set(key, pending);
  while (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
  // A copy: callers may scale or mix the samples in place.
  return (await pending).slice();
}

/**
 * Starts the synthesizer's helper processes and waits until each has compiled flite (21 MB of wasm: hundreds of
 * ms on a busy machine), so the first call after a start does not pay for it before its intro.
 */
export function warmOfflineSpeech(): Promise<void> {
  engine ??= new FliteEngine();
  return engine.warm();
}

/** Stops the synthesizer's helper processes (shutdown, tests); the next synthesis starts them again. */
export async function closeOfflineSpeech(): Promise<void> {
  const running = engine;
  engine = undefined;
  cache.clear();
  await running?.close();
}
