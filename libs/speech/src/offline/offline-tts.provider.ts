import { synthesizeOfflineSpeech, type FliteVoice } from '@vap/media';
import { ProviderError } from '../provider-error';
import type { TtsProvider, TtsRequest, TtsVoice } from '../tts-provider';

/** Samples per yielded chunk (200 ms): small enough that barge-in stops the stream between chunks. */
const CHUNK_SAMPLES = 1600;

// Catalog voice ids that name their gender or are well-known provider voices.
const FEMALE_HINT = /female|woman|girl|\b(nova|shimmer|coral|sage|alloy|aoede|slt)\b/i;
const MALE_HINT = /\bmale\b|\bman\b|\b(onyx|echo|fable|ash|ballad|verse|charon|kal)\b/i;
// Tokens of provider voice ids that are not the voice's name (Azure en-IN-NeerjaNeural, Google Chirp3-HD-x).
const NOT_A_NAME = /^(neural|chirp\d*|hd|standard|wavenet|studio|multilingual|v\d*)$/i;

/** FNV-1a, so a voice keeps its flite voice (and its eSpeak NG variant) across restarts and replicas. */
export function stableHash(value: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < value.length; i++) hash = Math.imul(hash ^ value.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}

/**
 * The flite voice that stands in for a catalog voice: slt (female) or kal (male). An explicit hint in the id
 * wins; then a name-like id (sarvam `anushka`, Azure `hi-IN-MadhurNeural`) is read by its ending, since Indic
 * female names mostly end in a vowel (-a, -i, -e) and male ones in a consonant; opaque ids (ElevenLabs,
 * Cartesia) get a stable hash.
 */
export function fliteVoiceFor(voice: Pick<TtsVoice, 'providerVoiceId'>): FliteVoice {
  const id = voice.providerVoiceId;
  if (FEMALE_HINT.test(id)) return 'slt';
  if (MALE_HINT.test(id)) return 'kal';
  const tokens = id
    .replace(/Neural$/, '')
    .split(/[^A-Za-z0-9]+/)
    .filter((t) => t.length > 2 && !NOT_A_NAME.test(t));
  const name =
    tokens.length && tokens.every((t) => /^[A-Za-z]+$/.test(t)) ? tokens[tokens.length - 1] : undefined;
  if (name) return /[aie]$/i.test(name) ? 'slt' : 'kal';
  return stableHash(id) % 2 === 0 ? 'kal' : 'slt';
}

/** Offline TTS: flite speech with its text in-band (see @vap/media synthesizeOfflineSpeech), 8 kHz. */
export class OfflineTtsProvider implements TtsProvider {
  readonly name = 'offline' as const;

  async *synthesize(request: TtsRequest, signal?: AbortSignal): AsyncIterable<Int16Array> {
    if (signal?.aborted) return;
    let pcm: Int16Array;
    try {
      pcm = await synthesizeOfflineSpeech(request.text, {
        voice: fliteVoiceFor(request.voice),
        speed: request.voice.speed,
        volume: request.voice.volume,
      });
    } catch (error) {
      throw new ProviderError('tts', this.name, error);
    }
    for (let at = 0; at < pcm.length; at += CHUNK_SAMPLES) {
      if (signal?.aborted) return;
      yield pcm.subarray(at, at + CHUNK_SAMPLES);
    }
  }
}
