import { pcm16ToBuffer } from '@vap/media';
import { keytermsForUrl } from '../keyterms';
import { spokenLanguageOf } from '../languages';
import type { NetworkProviderConfig } from '../speech-settings';
import type { SttOptions, SttProvider } from '../stt-provider';
import { StreamingSttSession } from '../streaming-stt-session';

/** Universal-Streaming takes 16 kHz PCM16 best (the caller's 8 kHz is resampled). */
const SAMPLE_RATE = 16000;
/** AssemblyAI closes the stream (3007) on audio messages under 50 ms or over 1000 ms. */
const CHUNK_MS = 50;
/** With format_turns, the formatted end-of-turn follows the raw one; this long without it, the raw one stands. */
export const FORMAT_GRACE_MS = 300;
export const ASSEMBLYAI_DEFAULT_MODEL = 'universal-streaming-english';

/**
 * The path of an API base without a trailing slash or an API version (`/v2`, `/v3`): a proxy's prefix
 * (`http://proxy/aai`) is kept, so every endpoint's path follows it as it does for the other providers.
 */
function basePath(url: URL): string {
  return url.pathname.replace(/\/+$/, '').replace(/\/v[23]$/i, '');
}

/**
 * The v3 streaming URL for an API base. AssemblyAI serves streaming on its own host: `api.` becomes
 * `streaming.` (api.assemblyai.com -> streaming.assemblyai.com, api.eu.assemblyai.com ->
 * streaming.eu.assemblyai.com). Any other host (a proxy, a local fake) serves both on one origin.
 */
export function assemblyAiStreamingBase(baseUrl: string): string {
  const url = new URL(baseUrl.trim());
  const host = url.host.replace(/^api\./i, 'streaming.');
  const scheme = url.protocol === 'http:' ? 'ws:' : 'wss:';
  return `${scheme}//${host}${basePath(url)}`;
}

/** The REST base, its path kept (the key check's /v2/transcript follows it). */
export function assemblyAiRestBase(baseUrl: string): string {
  const url = new URL(baseUrl.trim());
  return `${url.origin}${basePath(url)}`;
}

/** The connection URL of one call's stream: format, model, keyterms and the agent's turn options. */
export function assemblyAiStreamingUrl(config: NetworkProviderConfig, options: SttOptions): string {
  const query = new URLSearchParams({
    sample_rate: String(SAMPLE_RATE),
    encoding: 'pcm_s16le',
    format_turns: 'true',
    speech_model: options.model || config.model || ASSEMBLYAI_DEFAULT_MODEL,
  });
  const keyterms = keytermsForUrl(options.keyterms);
  if (keyterms.length) query.set('keyterms_prompt', JSON.stringify(keyterms));
  const extra = options.providerOptions ?? {};
  const threshold = extra.end_of_turn_confidence_threshold;
  if (typeof threshold === 'number') query.set('end_of_turn_confidence_threshold', String(threshold));
  // The agent's option keeps the unit in its name; the API's current name for it is min_turn_silence (ms).
  const silence =
    extra.min_end_of_turn_silence_when_confident_ms ?? extra.min_end_of_turn_silence_when_confident;
  if (typeof silence === 'number') query.set('min_turn_silence', String(Math.round(silence)));
  if (query.get('speech_model') === 'universal-streaming-multilingual')
    query.set('language_detection', 'true');
  return `${assemblyAiStreamingBase(config.baseUrl)}/v3/ws?${query}`;
}

/** The v3 server messages used here (AssemblyAI streaming API reference, Turn/Begin/Termination). */
interface AssemblyAiMessage {
  type?: 'Begin' | 'Turn' | 'SpeechStarted' | 'Termination';
  error?: string;
  turn_order?: number;
  end_of_turn?: boolean;
  turn_is_formatted?: boolean;
  transcript?: string;
  words?: { text?: string }[];
  language_code?: string;
}

/**
 * AssemblyAI Universal-Streaming v3: one WebSocket per call (`Authorization: <key>`), binary PCM16 at 16 kHz in
 * 50 ms chunks. Partial Turns are the words so far; finish() sends ForceEndpoint and resolves with the turn's
 * end (its formatted text: format_turns is on). close() sends Terminate, which ends the billed session.
 */
export class AssemblyAiSttProvider implements SttProvider {
  readonly name = 'assemblyai' as const;

  constructor(
    private readonly config: NetworkProviderConfig,
    private readonly formatGraceMs = FORMAT_GRACE_MS,
  ) {}

  async open(options: SttOptions): Promise<AssemblyAiSttSession> {
    const session = new AssemblyAiSttSession(this.config, options, this.formatGraceMs);
    await session.connected;
    return session;
  }
}

export class AssemblyAiSttSession extends StreamingSttSession {
  /** The raw end of a turn whose formatted text is awaited. */
  private unformatted: { order: number; text: string; timer: NodeJS.Timeout } | undefined;
  /** The last turn whose end was taken, so a formatted copy arriving late is not taken twice. */
  private lastEnded = -1;

  constructor(
    config: NetworkProviderConfig,
    private readonly sttOptions: SttOptions,
    private readonly formatGraceMs: number,
  ) {
    super({
      provider: 'assemblyai',
      url: assemblyAiStreamingUrl(config, sttOptions),
      headers: { authorization: config.apiKey },
      timeoutMs: config.timeoutMs,
      sampleRate: SAMPLE_RATE,
      chunkMs: CHUNK_MS,
      padTail: true,
    });
  }

  protected override opensOnConnect(): boolean {
    // Audio is taken once the server says Begin; a refused key closes the socket before it.
    return false;
  }

  protected sendAudio(pcm: Int16Array): void {
    this.ws.send(pcm16ToBuffer(pcm));
  }

  protected sendFlush(): void {
    this.ws.send(JSON.stringify({ type: 'ForceEndpoint' }));
  }

  protected override goodbye(): string {
    clearTimeout(this.unformatted?.timer);
    return JSON.stringify({ type: 'Terminate' });
  }

  protected override spokenLanguage(answer: string): string | undefined {
    return spokenLanguageOf(answer, this.sttOptions.languages);
  }

  protected onMessage(raw: string): void {
    let message: AssemblyAiMessage;
    try {
      message = JSON.parse(raw) as AssemblyAiMessage;
    } catch {
      return;
    }
    if (typeof message.error === 'string') return this.fail(new Error(message.error));
    switch (message.type) {
      case 'Begin':
        // A stream reopened after an idle close numbers its turns from 0 again.
        clearTimeout(this.unformatted?.timer);
        this.unformatted = undefined;
        this.lastEnded = -1;
        return this.ready();
      case 'SpeechStarted':
        return this.speechStarted();
      case 'Turn':
        return this.onTurn(message);
      default:
        return;
    }
  }

  private onTurn(turn: AssemblyAiMessage): void {
    const order = turn.turn_order ?? 0;
    const words = turn.words?.map((w) => w.text ?? '').join(' ') ?? '';
    const text = (turn.transcript || words).trim();
    if (!turn.end_of_turn) {
      if (text) this.interim(text);
      return;
    }
    if (order <= this.lastEnded) return;
    if (!turn.turn_is_formatted) {
      // The formatted copy of this turn follows; until it does, its words show as interim.
      clearTimeout(this.unformatted?.timer);
      const timer = setTimeout(() => this.endTurn(order, text, turn.language_code), this.formatGraceMs);
      this.unformatted = { order, text, timer };
      this.interim(text);
      return;
    }
    this.endTurn(order, text, turn.language_code);
  }

  private endTurn(order: number, text: string, language?: string): void {
    if (this.unformatted?.order === order) {
      clearTimeout(this.unformatted.timer);
      this.unformatted = undefined;
    }
    this.lastEnded = order;
    this.final(text, language);
    this.endpoint();
  }
}
