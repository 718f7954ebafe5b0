import { apiBaseUrl } from '@vap/llm';
import { CloudTtsProvider, type TtsCall } from '../cloud-tts-provider';
import { isoLanguageOf } from '../languages';
import { substituteAliases } from '../pronunciation-match';
import type { TtsRequest, TtsVoice } from '../tts-provider';

/** Aura answers at the carriers' rate directly: no resampling. */
const SAMPLE_RATE = 8000;
/** Aura's REST endpoint takes at most this many characters of text per request. */
export const DEEPGRAM_SPEAK_MAX_CHARS = 2000;
/** Aura-2's speed control accepts 0.7-1.5. */
const MIN_SPEED = 0.7;
const MAX_SPEED = 1.5;
const DEFAULT_FAMILY = 'aura-2';

/** A full Aura model id names the family, the voice and its language: aura-2-thalia-en, aura-asteria-en. */
const FULL_MODEL = /^aura(?:-\d+)?-[a-z]+-[a-z]{2}$/;

/**
 * The `model` query value of a catalog voice. Aura's model id is the voice: a provider_voice_id that is a full id
 * (aura-2-thalia-en) is used as it is; a bare voice name (thalia) is combined with the catalog's model family
 * (aura-2, or TTS_MODEL) and the voice's language (aura-2-thalia-en).
 */
export function deepgramSpeakModel(voice: TtsVoice, configModel?: string): string {
  const id = voice.providerVoiceId.trim().toLowerCase();
  if (FULL_MODEL.test(id)) return id;
  const family = [voice.model, configModel]
    .map((m) => m?.trim().toLowerCase())
    .find((m) => m?.startsWith('aura'));
  const language = voice.language ? isoLanguageOf(voice.language) : 'en';
  return `${family ?? DEFAULT_FAMILY}-${id}-${/^[a-z]{2}$/.test(language) ? language : 'en'}`;
}

/**
 * The text in pieces Aura accepts: whole when short, else cut before the limit at a sentence end, else at a
 * space, else hard (one unbroken run of 2,000 characters has no better place).
 */
export function speakPieces(text: string, max = DEEPGRAM_SPEAK_MAX_CHARS): string[] {
  const pieces: string[] = [];
  let rest = text.trim();
  while (rest.length > max) {
    const window = rest.slice(0, max + 1);
    let cut = -1;
    for (const match of window.matchAll(/[.!?।]+["')\]]*\s/gu)) cut = match.index + match[0].length;
    if (cut <= 0) cut = window.lastIndexOf(' ');
    if (cut <= 0) cut = max;
    pieces.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest) pieces.push(rest);
  return pieces;
}

/**
 * Deepgram Aura over REST: POST /v1/speak with the voice as `model`, asking for raw 16-bit PCM at 8 kHz
 * (encoding=linear16, sample_rate=8000, container=none, so no WAV header reaches the line), `Authorization:
 * Token`. The answer is streamed chunked and goes out piece by piece as it arrives. Dictionary words are spoken
 * by their aliases (Aura takes plain text); speed uses Aura-2's speed control, volume is applied here.
 */
export class DeepgramTtsProvider extends CloudTtsProvider {
  readonly name = 'deepgram' as const;

  /** One request (and deadline) per piece of text Aura accepts, spoken one after the other. */
  override async *synthesize(request: TtsRequest, signal?: AbortSignal): AsyncIterable<Int16Array> {
    for (const piece of speakPieces(substituteAliases(request.text, request.pronunciations))) {
      if (signal?.aborted) return;
      yield* this.timed(signal, (call) => this.speak({ ...request, text: piece }, call));
    }
  }

  protected async *speak({ text, voice }: TtsRequest, call: TtsCall) {
    const model = deepgramSpeakModel(voice, this.config.model);
    const query = new URLSearchParams({
      model,
      encoding: 'linear16',
      sample_rate: String(SAMPLE_RATE),
      container: 'none',
    });
    const speed = voice.speed || 1;
    if (speed !== 1 && model.startsWith('aura-2-')) {
      query.set('speed', String(Math.min(MAX_SPEED, Math.max(MIN_SPEED, speed))));
    }
    yield* this.postForPcm(
      call,
      `${apiBaseUrl(this.config.baseUrl)}/speak?${query}`,
      {
        headers: { authorization: `Token ${this.config.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ text }),
      },
      { sampleRate: SAMPLE_RATE, gain: Math.min(2, Math.max(0, voice.volume ?? 1)) },
    );
  }
}
