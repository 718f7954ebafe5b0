import { Blob } from 'node:buffer';
import { FormData, request } from 'undici';
import { apiBaseUrl } from '@vap/llm';
import { encodePcm16Wav, PcmBuffer } from '@vap/media';
import { ProviderError } from '../provider-error';
import { RequestDeadline } from '../request-deadline';
import { recognitionLanguage, type NetworkProviderConfig } from '../speech-settings';
import type { SttOptions, SttProvider, SttSession } from '../stt-provider';

/**
 * The carrier's rate, as it came: upsampling adds no information to 4 kHz telephone audio, and Whisper-family
 * endpoints resample every upload to their model's rate anyway. Doing it here cost a sixth of a busy replica's
 * main thread.
 */
const UPLOAD_SAMPLE_RATE = 8000;
const DEFAULT_MODEL = 'whisper-1';
/** Of an error answer, what goes into the error message. */
const ERROR_EXCERPT_CHARS = 300;

/**
 * OpenAI-compatible STT: each utterance is posted whole, as an 8 kHz WAV, to `<base>/audio/transcriptions` when the
 * endpointer ends it; finish() only has to wrap and send what was kept.
 */
export class OpenAiSttProvider implements SttProvider {
  readonly name = 'openai' as const;

  constructor(private readonly config: NetworkProviderConfig) {}

  async open(options: SttOptions): Promise<SttSession> {
    return new OpenAiSttSession(this.config, recognitionLanguage(options.languages), options.prompt);
  }
}

class OpenAiSttSession implements SttSession {
  /** The utterance so far; its capacity is kept from one utterance to the next. */
  private readonly utterance = new PcmBuffer();

  constructor(
    private readonly config: NetworkProviderConfig,
    private readonly recognitionLanguage: string | undefined,
    private readonly prompt: string | undefined,
  ) {}

  push(frame: Int16Array): void {
    this.utterance.write(frame);
  }

  async finish(signal?: AbortSignal): Promise<string> {
    return this.transcribe(this.take(), signal);
  }

  /** The utterance so far, transcribed at a pause; the utterance goes on (see SttSession.speculate). */
  async speculate(signal?: AbortSignal): Promise<string> {
    return this.transcribe(this.utterance.copy(), signal);
  }

  private async transcribe(pcm: Int16Array, signal?: AbortSignal): Promise<string> {
    signal?.throwIfAborted();
    if (pcm.length === 0) return '';
    const form = new FormData();
    form.append(
      'file',
      new Blob([encodePcm16Wav(pcm, UPLOAD_SAMPLE_RATE)], { type: 'audio/wav' }),
      'utterance.wav',
    );
    form.append('model', this.config.model ?? DEFAULT_MODEL);
    form.append('response_format', 'json');
    if (this.recognitionLanguage) form.append('language', this.recognitionLanguage);
    if (this.prompt) form.append('prompt', this.prompt);
    const deadline = new RequestDeadline('transcription', this.config.timeoutMs, signal);
    try {
      const res = await request(`${apiBaseUrl(this.config.baseUrl)}/audio/transcriptions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.config.apiKey}` },
        body: form,
        signal: deadline.signal,
      });
      const body = await res.body.text();
      if (res.statusCode < 200 || res.statusCode >= 300) {
        throw new Error(`HTTP ${res.statusCode}: ${body.slice(0, ERROR_EXCERPT_CHARS)}`);
      }
      const text = (JSON.parse(body) as { text?: unknown }).text;
      if (typeof text !== 'string') throw new Error('the answer has no text');
      return text.trim();
    } catch (error) {
      if (deadline.callerAborted) throw signal?.reason ?? error;
      throw new ProviderError('stt', 'openai', deadline.timeout ?? error);
    } finally {
      deadline.release();
    }
  }

  async close(): Promise<void> {
    this.utterance.clear();
  }

  /** The utterance so far as a buffer of its own, and a clean start for the next one. */
  private take(): Int16Array {
    const pcm = this.utterance.copy();
    this.utterance.clear();
    return pcm;
  }
}
