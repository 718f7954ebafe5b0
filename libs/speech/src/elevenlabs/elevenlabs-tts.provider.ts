import { isoLanguageOf } from '../languages';
import { substituteAliases } from '../pronunciation-match';
import { CloudTtsProvider, type TtsCall } from '../cloud-tts-provider';
import { rawPcm16Pieces } from '../raw-pcm-stream';
import { socketBase, SpeechSocket } from '../speech-socket';
import type { NetworkProviderConfig } from '../speech-settings';
import type { Pronunciation, TtsRequest, TtsVoice } from '../tts-provider';
import { elevenLabsPhonemeText } from './elevenlabs-markup';

export const ELEVENLABS_DEFAULT_MODEL = 'eleven_flash_v2_5';
/** The stream's output format: raw 16 kHz PCM16 (ElevenLabs' `pcm_16000`), resampled here to 8 kHz. */
const OUTPUT_FORMAT = 'pcm_16000';
const OUTPUT_SAMPLE_RATE = 16000;
/** voice_settings.speed: the API takes 0.7-1.2 (1 is the voice's own pace). */
const MIN_SPEED = 0.7;
const MAX_SPEED = 1.2;

/** Models that take `language_code` (the v2.5 models; others refuse it and detect the language themselves). */
const LANGUAGE_CODE_MODELS = new Set(['eleven_flash_v2_5', 'eleven_turbo_v2_5']);
/** ISO 639-1 codes of the v2.5 models' languages. */
const LANGUAGE_CODES = new Set(
  'en ja zh de hi fr ko pt it es id nl tr pl sv bg ro ar cs el fi hr ms sk da ta uk ru hu no vi'.split(' '),
);
/** Models whose SSML parsing takes `<phoneme>` tags (English only, as ElevenLabs documents). */
const PHONEME_MODELS = new Set(['eleven_flash_v2', 'eleven_turbo_v2', 'eleven_monolingual_v1']);

/** The API origin of a base URL, with or without its `/v1` (both conventions are in use). */
export function elevenLabsApiBase(baseUrl: string): string {
  return baseUrl.trim().replace(/\/+$/, '').replace(/\/v1$/i, '');
}

/** What is sent for one synthesis: the stream-input URL and the text as the model takes it. */
export interface ElevenLabsRequest {
  url: string;
  text: string;
}

/**
 * The stream-input URL and text of a request: the model, 16 kHz PCM out, auto mode (whole sentences go in, so
 * the chunk schedule's buffering only adds latency), the language for the models that take one, and SSML
 * parsing when phoneme tags carry the dictionary's IPA.
 */
export function elevenLabsRequest(
  config: Pick<NetworkProviderConfig, 'baseUrl' | 'model'>,
  text: string,
  voice: TtsVoice,
  pronunciations: readonly Pronunciation[] = [],
): ElevenLabsRequest {
  const model = config.model || voice.model || ELEVENLABS_DEFAULT_MODEL;
  const language = voice.language ? isoLanguageOf(voice.language) : undefined;
  const query = new URLSearchParams({ model_id: model, output_format: OUTPUT_FORMAT, auto_mode: 'true' });
  if (language && LANGUAGE_CODE_MODELS.has(model) && LANGUAGE_CODES.has(language)) {
    query.set('language_code', language);
  }
  const phonemes =
    PHONEME_MODELS.has(model) &&
    (!language || language === 'en') &&
    pronunciations.some((p) => p.ipa?.trim());
  if (phonemes) query.set('enable_ssml_parsing', 'true');
  const path = `/v1/text-to-speech/${encodeURIComponent(voice.providerVoiceId)}/stream-input`;
  return {
    url: `${socketBase(elevenLabsApiBase(config.baseUrl))}${path}?${query}`,
    text: phonemes ? elevenLabsPhonemeText(text, pronunciations) : substituteAliases(text, pronunciations),
  };
}

/** An answer on the stream: audio, the final marker, or an error report. */
interface ElevenLabsAnswer {
  audio?: string | null;
  isFinal?: boolean | null;
  error?: unknown;
  message?: unknown;
}

/**
 * ElevenLabs text-to-speech over the stream-input WebSocket, one socket per synthesis: the blank first message
 * with the voice settings, the text flushed at once, the end of input; base64 PCM chunks come back until
 * `isFinal`. The first audio goes out as the first chunk arrives. The deadline runs to the first chunk and
 * between chunks, not while the pipeline consumes; a barge-in closes the socket.
 */
export class ElevenLabsTtsProvider extends CloudTtsProvider {
  readonly name = 'elevenlabs' as const;

  protected async *speak({ text, voice, pronunciations }: TtsRequest, call: TtsCall) {
    if (!text.trim()) return;
    const request = elevenLabsRequest(this.config, text.trim(), voice, pronunciations);
    const socket = await SpeechSocket.open(
      request.url,
      { 'xi-api-key': this.config.apiKey },
      call.deadline.signal,
    );
    // Done, failed or stopped early (barge-in): the socket goes, so nothing more is generated or billed.
    call.onRelease(() => socket.close());
    const speed = Math.min(MAX_SPEED, Math.max(MIN_SPEED, voice.speed || 1));
    // The first message is a blank space; voice settings go only here (later ones must not change them).
    socket.send(speed !== 1 ? { text: ' ', voice_settings: { speed } } : { text: ' ' });
    // Text ends with a space, as the protocol asks; flush generates it now, the empty text ends the input.
    socket.send({ text: `${request.text} `, flush: true });
    socket.send({ text: '' });
    yield* rawPcm16Pieces(elevenLabsAudio(socket), {
      sampleRate: OUTPUT_SAMPLE_RATE,
      gain: voice.volume ?? 1,
      deadline: call.deadline,
      signal: call.signal,
    });
  }
}

/** The stream's audio chunks (PCM16 bytes) until its final message. */
async function* elevenLabsAudio(socket: SpeechSocket): AsyncGenerator<Buffer> {
  for (;;) {
    const frame = await socket.next();
    if (frame === undefined) throw new Error('the stream ended before its final message');
    const answer = parseAnswer(frame);
    if (answer.audio) yield Buffer.from(answer.audio, 'base64');
    if (answer.isFinal) return;
  }
}

/** One frame as an answer; an error report (or a frame that is no answer) throws with the provider's words. */
function parseAnswer(frame: string): ElevenLabsAnswer {
  let answer: ElevenLabsAnswer;
  try {
    answer = JSON.parse(frame) as ElevenLabsAnswer;
  } catch {
    throw new Error(`not a JSON message: ${frame.slice(0, 100)}`);
  }
  if (!answer || typeof answer !== 'object') throw new Error('not a JSON object');
  if (!answer.audio && !answer.isFinal && (answer.error !== undefined || answer.message !== undefined)) {
    const words = [answer.error, answer.message].filter((w) => typeof w === 'string' && w).join(': ');
    throw new Error(words.slice(0, 300) || 'error message from the provider');
  }
  return answer;
}
