import { randomUUID } from 'node:crypto';
import { isoLanguageOf } from '../languages';
import { substituteAliases } from '../pronunciation-match';
import { CloudTtsProvider, type TtsCall } from '../cloud-tts-provider';
import { rawPcm16Pieces } from '../raw-pcm-stream';
import { socketBase, SpeechSocket } from '../speech-socket';
import type { NetworkProviderConfig } from '../speech-settings';
import type { TtsRequest, TtsVoice } from '../tts-provider';

export const CARTESIA_DEFAULT_MODEL = 'sonic-3';
/** The API version this adapter speaks (the Cartesia-Version header every request carries). */
export const CARTESIA_VERSION = '2025-11-04';
const OUTPUT_SAMPLE_RATE = 16000;
/** generation_config.speed of the sonic-3 models: 0.6-1.5 (1 is the voice's own pace). */
const MIN_SPEED = 0.6;
const MAX_SPEED = 1.5;

/** ISO 639-1 codes Cartesia's `language` takes; another is left out (the voice's own language is used). */
const LANGUAGES = new Set(
  (
    'en fr de es pt zh ja hi it ko nl pl ru sv tr tl bg ro ar cs el fi hr ms sk da ta uk hu no vi bn th he ka ' +
    'id te gu kn ml mr pa'
  ).split(' '),
);

/** The headers of every Cartesia request: the key as a bearer token and the API version. */
export function cartesiaHeaders(apiKey: string): Record<string, string> {
  return { authorization: `Bearer ${apiKey}`, 'cartesia-version': CARTESIA_VERSION };
}

/** The API origin of a base URL, without a trailing slash. */
export function cartesiaApiBase(baseUrl: string): string {
  return baseUrl.trim().replace(/\/+$/, '');
}

/** The sonic-3 family takes a numeric speed in generation_config; earlier models a coarse `speed` word. */
function speedFields(model: string, speed: number): Record<string, unknown> {
  if (!speed || speed === 1) return {};
  if (/^sonic-3/.test(model) || model === 'sonic-latest') {
    return { generation_config: { speed: Math.min(MAX_SPEED, Math.max(MIN_SPEED, speed)) } };
  }
  if (speed < 0.9) return { speed: 'slow' };
  if (speed > 1.1) return { speed: 'fast' };
  return {};
}

/** The generation request of one synthesis: the whole text in one context, no more input to follow. */
export function cartesiaGenerationRequest(
  config: Pick<NetworkProviderConfig, 'model'>,
  contextId: string,
  transcript: string,
  voice: TtsVoice,
): Record<string, unknown> {
  const model = config.model || voice.model || CARTESIA_DEFAULT_MODEL;
  const language = voice.language ? isoLanguageOf(voice.language) : undefined;
  return {
    context_id: contextId,
    model_id: model,
    transcript,
    voice: { mode: 'id', id: voice.providerVoiceId },
    output_format: { container: 'raw', encoding: 'pcm_s16le', sample_rate: OUTPUT_SAMPLE_RATE },
    ...(language && LANGUAGES.has(language) ? { language } : {}),
    ...speedFields(model, voice.speed),
    continue: false,
  };
}

/** A message on the socket (the fields used here). */
interface CartesiaAnswer {
  type?: string;
  context_id?: string;
  data?: string;
  done?: boolean;
  title?: string;
  message?: string;
  error?: string;
  status_code?: number;
}

/**
 * Cartesia text-to-speech over its TTS WebSocket, one socket and one context per synthesis: the text goes in
 * one generation request, raw PCM16 chunks (base64) come back until `done`. The first audio goes out as the
 * first chunk arrives. The deadline runs to the first chunk and between chunks, not while the pipeline
 * consumes; a barge-in cancels the context and closes the socket.
 */
export class CartesiaTtsProvider extends CloudTtsProvider {
  readonly name = 'cartesia' as const;

  protected async *speak({ text, voice, pronunciations }: TtsRequest, call: TtsCall) {
    const transcript = substituteAliases(text.trim(), pronunciations);
    if (!transcript.trim()) return;
    const url = `${socketBase(cartesiaApiBase(this.config.baseUrl))}/tts/websocket`;
    const context = { id: randomUUID(), done: false };
    const socket = await SpeechSocket.open(url, cartesiaHeaders(this.config.apiKey), call.deadline.signal);
    call.onRelease(() => {
      // Stopped before the end (barge-in, failure): the context is cancelled so nothing more is generated.
      if (!context.done) socket.send({ context_id: context.id, cancel: true });
      socket.close();
    });
    // A barge-in or a stall cancels the context before the socket closes.
    socket.farewell = { context_id: context.id, cancel: true };
    socket.send(cartesiaGenerationRequest(this.config, context.id, transcript, voice));
    yield* rawPcm16Pieces(cartesiaAudio(socket, context), {
      sampleRate: OUTPUT_SAMPLE_RATE,
      gain: voice.volume ?? 1,
      deadline: call.deadline,
      signal: call.signal,
    });
  }
}

/** The context's audio chunks (PCM16 bytes) until its `done`, which it marks on `context`. */
async function* cartesiaAudio(
  socket: SpeechSocket,
  context: { id: string; done: boolean },
): AsyncGenerator<Buffer> {
  while (!context.done) {
    const frame = await socket.next();
    if (frame === undefined) throw new Error('the socket closed before the context was done');
    const answer = parseAnswer(frame);
    // Errors of the connection itself carry no context id; another context's messages are not ours.
    if (answer.context_id !== undefined && answer.context_id !== context.id) continue;
    if (answer.type === 'error') {
      const words = [answer.title, answer.message ?? answer.error].filter(Boolean).join(': ');
      throw new Error(`${answer.status_code ?? 'error'} ${words}`.slice(0, 300));
    }
    if (answer.type === 'chunk' && answer.data) yield Buffer.from(answer.data, 'base64');
    if (answer.type === 'done') context.done = true;
  }
}

function parseAnswer(frame: string): CartesiaAnswer {
  let answer: unknown;
  try {
    answer = JSON.parse(frame);
  } catch {
    throw new Error(`not a JSON message: ${frame.slice(0, 100)}`);
  }
  if (!answer || typeof answer !== 'object') throw new Error('not a JSON object');
  return answer as CartesiaAnswer;
}
