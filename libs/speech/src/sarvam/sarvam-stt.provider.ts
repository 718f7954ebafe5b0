import { INDIAN_LOCALES, isoLanguageOf, spokenLanguageOf } from '../languages';
import type { NetworkProviderConfig } from '../speech-settings';
import type { SttOptions, SttProvider } from '../stt-provider';
import { StreamingSttSession } from '../streaming-stt-session';
import { SARVAM_KEY_HEADER, sarvamSocketBase } from './sarvam-urls';

const SAMPLE_RATE = 16000;
/** Sarvam takes any chunk length; 50 ms keeps the JSON+base64 framing overhead low without adding delay. */
const CHUNK_MS = 50;
export const SARVAM_STT_DEFAULT_MODEL = 'saaras:v3';
/** Sarvam's auto-detection: the code sent when the agent speaks two languages (the caller may switch). */
export const SARVAM_AUTO_LANGUAGE = 'unknown';

/**
 * The language-code Sarvam is told: the agent's one language as Sarvam's locale, or `unknown` (auto-detect)
 * when it has none, several (code-switching), or one Sarvam does not know.
 */
export function sarvamLanguageCode(languages: readonly string[]): string {
  if (languages.length !== 1) return SARVAM_AUTO_LANGUAGE;
  const code = languages[0].toLowerCase();
  const locale = (INDIAN_LOCALES as Record<string, string | undefined>)[code];
  return (
    locale ??
    (INDIAN_LOCALES as Record<string, string | undefined>)[isoLanguageOf(code)] ??
    SARVAM_AUTO_LANGUAGE
  );
}

/** The streaming URL of one call: language, model, PCM format, VAD signals and flush support. */
export function sarvamSttUrl(config: NetworkProviderConfig, options: SttOptions): string {
  const model = options.model || config.model || SARVAM_STT_DEFAULT_MODEL;
  const query = new URLSearchParams({
    'language-code': sarvamLanguageCode(options.languages),
    model,
    sample_rate: String(SAMPLE_RATE),
    input_audio_codec: 'pcm_s16le',
    vad_signals: 'true',
    flush_signal: 'true',
  });
  // Only the saaras models have modes; transcribe keeps the caller's own language and script.
  if (/^saaras:v[3-9]/.test(model)) query.set('mode', 'transcribe');
  const vad = options.providerOptions?.high_vad_sensitivity;
  if (typeof vad === 'boolean') query.set('high_vad_sensitivity', String(vad));
  return `${sarvamSocketBase(config.baseUrl)}/speech-to-text/ws?${query}`;
}

/** Sarvam's streaming STT server messages (the fields used here). */
interface SarvamSttMessage {
  type?: 'data' | 'events' | 'error';
  data?: {
    transcript?: string;
    language_code?: string | null;
    signal_type?: 'START_SPEECH' | 'END_SPEECH';
    message?: string;
    error?: string;
    code?: string | number;
  };
}

/**
 * Sarvam streaming speech-to-text (`/speech-to-text/ws`): base64 PCM16 at 16 kHz in JSON frames. Sarvam's VAD
 * cuts the speech into segments, each answered with one transcript (no interim words): they reach onPartial as
 * they come, and finish() flushes the segment in progress. With two languages the stream auto-detects
 * (`unknown`) and `language` follows each answer's language_code.
 */
export class SarvamSttProvider implements SttProvider {
  readonly name = 'sarvam' as const;

  constructor(private readonly config: NetworkProviderConfig) {}

  async open(options: SttOptions): Promise<SarvamSttSession> {
    const session = new SarvamSttSession(this.config, options);
    await session.connected;
    return session;
  }
}

export class SarvamSttSession extends StreamingSttSession {
  constructor(
    config: NetworkProviderConfig,
    private readonly sttOptions: SttOptions,
  ) {
    super({
      provider: 'sarvam',
      url: sarvamSttUrl(config, sttOptions),
      headers: { [SARVAM_KEY_HEADER]: config.apiKey },
      timeoutMs: config.timeoutMs,
      sampleRate: SAMPLE_RATE,
      chunkMs: CHUNK_MS,
      padTail: false,
    });
  }

  protected sendAudio(pcm: Int16Array): void {
    const data = Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength).toString('base64');
    this.ws.send(JSON.stringify({ audio: { data, sample_rate: SAMPLE_RATE, encoding: 'audio/wav' } }));
  }

  protected sendFlush(): void {
    this.ws.send(JSON.stringify({ type: 'flush' }));
  }

  protected override spokenLanguage(answer: string): string | undefined {
    return spokenLanguageOf(answer, this.sttOptions.languages);
  }

  protected onMessage(raw: string): void {
    let message: SarvamSttMessage;
    try {
      message = JSON.parse(raw) as SarvamSttMessage;
    } catch {
      return;
    }
    const data = message.data ?? {};
    if (message.type === 'events') {
      if (data.signal_type === 'START_SPEECH') this.speechStarted();
    } else if (message.type === 'data') {
      this.final(data.transcript ?? '', data.language_code ?? undefined);
      this.endpoint();
    } else if (message.type === 'error') {
      // A flush of a buffer with no speech in it may be refused; there was nothing to finalise, so the
      // utterance is what arrived (the stream reopens at the next words if Sarvam closes it).
      if (this.flushingWithoutSpeech) return this.endpoint();
      const code = data.code !== undefined ? `${data.code}: ` : '';
      this.fail(new Error(`${code}${data.message ?? data.error ?? 'error'}`));
    }
  }
}
