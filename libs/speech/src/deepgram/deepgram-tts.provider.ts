import { request } from 'undici';
import { apiBaseUrl } from '@vap/llm';
import { isoLanguageOf } from '../languages';
import { substituteAliases } from '../pronunciation-match';
import { ProviderError } from '../provider-error';
import { rawPcm16Pieces } from '../raw-pcm-stream';
import { RequestDeadline } from '../request-deadline';
import type { NetworkProviderConfig } from '../speech-settings';
import type { TtsProvider, TtsRequest, TtsVoice } from '../tts-provider';

/** Aura answers at the carriers' rate directly: no resampling. */
const SAMPLE_RATE = 8000;
/** Aura's REST endpoint takes at most this many characters of text per request. */
export const DEEPGRAM_SPEAK_MAX_CHARS = 2000;
/** Aura-2's speed control accepts 0.7-1.5. */
const MIN_SPEED = 0.7;
const MAX_SPEED = 1.5;
const ERROR_EXCERPT_CHARS = 300;
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
export class DeepgramTtsProvider implements TtsProvider {
  readonly name = 'deepgram' as const;

  constructor(private readonly config: NetworkProviderConfig) {}

  async *synthesize(
    { text, voice, pronunciations }: TtsRequest,
    signal?: AbortSignal,
  ): AsyncIterable<Int16Array> {
    if (signal?.aborted) return;
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
    const url = `${apiBaseUrl(this.config.baseUrl)}/speak?${query}`;
    const gain = Math.min(2, Math.max(0, voice.volume ?? 1));
    for (const piece of speakPieces(substituteAliases(text, pronunciations))) {
      for await (const pcm of this.speakPiece(url, piece, gain, signal)) yield pcm;
      if (signal?.aborted) return;
    }
  }

  private async *speakPiece(url: string, text: string, gain: number, signal?: AbortSignal) {
    const deadline = new RequestDeadline('speech synthesis', this.config.timeoutMs, signal);
    let body: Awaited<ReturnType<typeof request>>['body'] | undefined;
    try {
      const res = await request(url, {
        method: 'POST',
        headers: { authorization: `Token ${this.config.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ text }),
        signal: deadline.signal,
      });
      body = res.body;
      if (res.statusCode < 200 || res.statusCode >= 300) {
        const answer = await res.body.text().catch(() => '');
        throw new Error(`HTTP ${res.statusCode}: ${answer.slice(0, ERROR_EXCERPT_CHARS)}`);
      }
      yield* rawPcm16Pieces(res.body as AsyncIterable<Buffer>, {
        sampleRate: SAMPLE_RATE,
        gain,
        deadline,
        signal,
      });
    } catch (error) {
      if (deadline.callerAborted) return;
      throw new ProviderError('tts', 'deepgram', deadline.timeout ?? error);
    } finally {
      deadline.release();
      // Stopped early (barge-in, consumer broke off): drop the rest of the answer and free the connection.
      if (body && !body.destroyed) body.destroy();
    }
  }
}
