import WebSocket from 'ws';
import { INDIAN_LOCALES, isoLanguageOf } from '../languages';
import { substituteAliases } from '../pronunciation-match';
import { CloudTtsProvider, type TtsCall } from '../cloud-tts-provider';
import { rawPcm16Pieces } from '../raw-pcm-stream';
import type { TtsRequest } from '../tts-provider';
import { SARVAM_KEY_HEADER, sarvamSocketBase } from './sarvam-urls';

export const SARVAM_TTS_DEFAULT_MODEL = 'bulbul:v2';
/** Bulbul speaks 8 kHz itself: the call's rate, so nothing is resampled. */
const SAMPLE_RATE = 8000;
/** Longest text one message takes (bulbul:v2's limit; v3 takes 2500). */
const MAX_TEXT_CHARS = 1500;
/** Audio bytes not yet taken by the pipeline, at most (a stalled consumer cannot make it grow without end). */
const MAX_QUEUED_BYTES = SAMPLE_RATE * 2 * 120;

/** The pace range of each model (bulbul:v2 0.3-3.0, v3 0.5-2.0). */
function paceFor(model: string, speed: number): number {
  const [low, high] = model.startsWith('bulbul:v2') ? [0.3, 3] : [0.5, 2];
  return Math.min(high, Math.max(low, speed || 1));
}

/** Sarvam's locale for a voice language (en-IN, hi, hinglish); English of India when it has none. */
export function sarvamTargetLanguage(language: string): string {
  const locales = INDIAN_LOCALES as Record<string, string | undefined>;
  return locales[language.toLowerCase()] ?? locales[isoLanguageOf(language)] ?? 'en-IN';
}

/** Text cut at spaces into messages Sarvam accepts. */
function textPieces(text: string): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > MAX_TEXT_CHARS) {
    const space = rest.lastIndexOf(' ', MAX_TEXT_CHARS);
    const cut = space > 0 ? space : MAX_TEXT_CHARS;
    pieces.push(rest.slice(0, cut));
    rest = rest.slice(cut).trimStart();
  }
  if (rest) pieces.push(rest);
  return pieces;
}

/** Sarvam's streaming TTS server messages (the fields used here). */
interface SarvamTtsMessage {
  type?: 'audio' | 'event' | 'error';
  data?: { audio?: string; event_type?: string; message?: string; code?: string | number };
}

/**
 * Sarvam Bulbul over its streaming WebSocket (`/text-to-speech/ws`): a config message (language, speaker, pace,
 * 8 kHz linear16), the text, a flush; base64 PCM chunks come back as they are synthesised, then the completion
 * event. One socket per request, closed when the audio is done or the caller stops listening (barge-in).
 */
export class SarvamTtsProvider extends CloudTtsProvider {
  readonly name = 'sarvam' as const;

  protected async *speak({ text, voice, pronunciations }: TtsRequest, call: TtsCall) {
    const spoken = substituteAliases(text, pronunciations).trim();
    if (!spoken) return;
    // The catalog voice's model first: speakers belong to one model (anushka is bulbul:v2's).
    const model = voice.model || this.config.model || SARVAM_TTS_DEFAULT_MODEL;
    const volume = voice.volume ?? 1;
    const loudnessOnServer = model.startsWith('bulbul:v2');
    const config: Record<string, unknown> = {
      target_language_code: sarvamTargetLanguage(voice.language),
      speaker: voice.providerVoiceId,
      pace: paceFor(model, voice.speed),
      speech_sample_rate: String(SAMPLE_RATE),
      output_audio_codec: 'linear16',
    };
    if (loudnessOnServer) config.loudness = Math.min(3, Math.max(0.3, volume));

    const query = new URLSearchParams({ model, send_completion_event: 'true' });
    const ws = new WebSocket(`${sarvamSocketBase(this.config.baseUrl)}/text-to-speech/ws?${query}`, {
      headers: { [SARVAM_KEY_HEADER]: this.config.apiKey },
      handshakeTimeout: this.config.timeoutMs,
    });
    call.onRelease(() => {
      // Done, failed or stopped early: the socket goes (an unfinished synthesis is abandoned with it).
      if (ws.readyState === WebSocket.OPEN) ws.close(1000);
      else ws.terminate();
    });
    const stream = new SocketAudio(ws, call.deadline.signal);
    ws.once('open', () => {
      ws.send(JSON.stringify({ type: 'config', data: config }));
      for (const piece of textPieces(spoken))
        ws.send(JSON.stringify({ type: 'text', data: { text: piece } }));
      ws.send(JSON.stringify({ type: 'flush' }));
    });
    yield* rawPcm16Pieces(stream.chunks(), {
      sampleRate: SAMPLE_RATE,
      gain: loudnessOnServer ? 1 : volume,
      deadline: call.deadline,
      signal: call.signal,
    });
  }
}

/** The audio arriving on one synthesis socket, taken chunk by chunk; ends at the completion event. */
class SocketAudio {
  private readonly queue: Buffer[] = [];
  /** Bytes queued. */
  private queued = 0;
  private done = false;
  private error: unknown;
  private wake: (() => void) | undefined;

  constructor(ws: WebSocket, signal: AbortSignal) {
    const stop = (error: unknown) => {
      if (this.done) return;
      this.error ??= error;
      this.done = true;
      this.wake?.();
    };
    ws.on('message', (data, isBinary) => {
      if (isBinary || this.done) return;
      let message: SarvamTtsMessage;
      try {
        message = JSON.parse(data.toString()) as SarvamTtsMessage;
      } catch {
        return;
      }
      if (message.type === 'audio' && message.data?.audio) {
        const bytes = Buffer.from(message.data.audio, 'base64');
        this.queued += bytes.length;
        if (this.queued > MAX_QUEUED_BYTES) return stop(new Error('more audio than any sentence needs'));
        this.queue.push(bytes);
        this.wake?.();
      } else if (message.type === 'event' && message.data?.event_type === 'final') {
        this.done = true;
        this.wake?.();
      } else if (message.type === 'error') {
        const code = message.data?.code !== undefined ? `${message.data.code}: ` : '';
        stop(new Error(`${code}${message.data?.message ?? 'error'}`));
      }
    });
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (part: string) => {
        if (body.length < 500) body += part;
      });
      res.on('end', () => stop(new Error(`upgrade refused: HTTP ${res.statusCode} ${body.trim()}`.trim())));
      res.on('error', () => stop(new Error(`upgrade refused: HTTP ${res.statusCode}`)));
    });
    ws.on('error', (error) => stop(error));
    ws.on('close', (code, reason) =>
      stop(new Error(`socket closed before the audio ended (${code}: ${reason.toString() || 'no reason'})`)),
    );
    signal.addEventListener('abort', () => stop(signal.reason), { once: true });
  }

  /** The chunks (PCM16 bytes) until the synthesis is complete; throws when it failed. */
  async *chunks(): AsyncGenerator<Buffer> {
    for (;;) {
      const bytes = this.queue.shift();
      if (bytes) {
        this.queued -= bytes.length;
        yield bytes;
        continue;
      }
      if (this.error !== undefined) throw this.error;
      if (this.done) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }
}
