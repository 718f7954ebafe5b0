// A fake ElevenLabs, speaking the protocol of its public API reference (elevenlabs.io/docs/api-reference:
// "Text to Speech / WebSocket" and "User"), as the reference stood in the official elevenlabs-js SDK 2.56.0
// (its InitializeConnection, SendText, CloseConnection, AudioOutput and FinalOutput message types):
// - WebSocket GET /v1/text-to-speech/{voice_id}/stream-input?model_id&output_format&language_code
//   &enable_ssml_parsing&inactivity_timeout&auto_mode, key in the `xi-api-key` header (or the first message's
//   `xi-api-key`). A wrong header key is refused at the upgrade (401 `invalid_api_key`).
// - Client messages: first `{text: " ", voice_settings?, generation_config?, "xi-api-key"?}`, then
//   `{text, try_trigger_generation?, flush?}`, and `{text: ""}` to end the input. voice_settings may not change
//   after the first message. Errors close the socket with 1008 and the reason, as ElevenLabs does.
// - Answers `{audio: base64, normalizedAlignment, alignment}` chunks in the output format (pcm_<rate> is
//   little-endian PCM16, ulaw_8000 mu-law), then `{audio: null, isFinal: true}` after the end of input, and a
//   normal close. The audio is speechPcm(text) of the text generated, so a recogniser reads the words back.
// - GET /v1/user (and /v1/models) with `xi-api-key`: 200, or 401 `{detail: {status, message}}`.
import type { IncomingMessage } from 'node:http';
import { sendJson, type StartedFakeServer, startFakeServer } from '@vap/testing';
import type { Duplex } from 'node:stream';
import WebSocket, { WebSocketServer } from 'ws';
import { FailureSwitch, type FailureMode } from './failure-switch';
import { refuseUpgrade } from './fake-provider-server';
import { keyMatches } from './streamed-answer';
import { chunkPause, speechChunks, ssmlText, type FakeEncoding } from './streamed-speech';

/** One stream-input connection, as the fake saw it. */
export interface ElevenLabsStream {
  /** The key the client authenticated with (header or first message). */
  apiKey: string | undefined;
  voiceId: string;
  modelId: string | undefined;
  outputFormat: string;
  languageCode: string | undefined;
  query: Record<string, string>;
  /** Client messages in order, parsed (a key sent in a message is not kept). */
  messages: Record<string, unknown>[];
  voiceSettings: Record<string, unknown> | undefined;
  /** The non-blank texts sent, in order, as sent. */
  texts: string[];
  /** What each generation spoke (markup dropped when SSML parsing was on). */
  spoken: string[];
  chunksSent: number;
  /** Chunks of the generations started so far, sent or still to send. */
  chunksPlanned: number;
  /** The socket's close code and reason once closed (by either side). */
  closed: { code: number; reason: string } | undefined;
}

/** A REST request to the fake. */
export interface ElevenLabsRestRequest {
  method: string;
  path: string;
  apiKey: string | undefined;
  status: number;
}

export interface ElevenLabsFakeOptions {
  apiKey: string;
  /**
   * A key scoped to speech alone: it synthesizes, but GET /v1/user answers 401 missing_permissions (it may not
   * read the user).
   */
  restrictedApiKey?: string;
  /** Chunks each generation is cut into (several, so streaming shows). */
  chunks?: number;
  /** Pause before each chunk, the time "synthesis" takes (0: the next tick). */
  chunkIntervalMs?: number;
}

const OUTPUT_FORMATS: Record<string, { rate: number; encoding: FakeEncoding } | null> = {
  pcm_8000: { rate: 8000, encoding: 'pcm_s16le' },
  pcm_16000: { rate: 16000, encoding: 'pcm_s16le' },
  pcm_22050: { rate: 22050, encoding: 'pcm_s16le' },
  pcm_24000: { rate: 24000, encoding: 'pcm_s16le' },
  pcm_44100: { rate: 44100, encoding: 'pcm_s16le' },
  pcm_48000: { rate: 48000, encoding: 'pcm_s16le' },
  ulaw_8000: { rate: 8000, encoding: 'pcm_mulaw' },
  // Real formats the fake cannot encode.
  mp3_22050_32: null,
  mp3_44100_32: null,
  mp3_44100_64: null,
  mp3_44100_96: null,
  mp3_44100_128: null,
  mp3_44100_192: null,
  alaw_8000: null,
  opus_48000_32: null,
};
/** The models the reference says take language_code. */
const LANGUAGE_CODE_MODELS = new Set(['eleven_flash_v2_5', 'eleven_turbo_v2_5']);
const INVALID_KEY = { detail: { status: 'invalid_api_key', message: 'Invalid API key' } };
const SORRY = 'We are sorry, something went wrong. You are not charged for this request.';
/** The largest client message the fake reads. */
const MAX_MESSAGE_BYTES = 1 << 20;

export class ElevenLabsFake {
  readonly streams: ElevenLabsStream[] = [];
  readonly requests: ElevenLabsRestRequest[] = [];
  /** Upgrade attempts (accepted or refused) with the header key they carried. */
  readonly upgrades: { path: string; apiKey: string | undefined; refused: number | undefined }[] = [];
  private readonly failures = new FailureSwitch();
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });

  private constructor(
    private readonly options: Required<Omit<ElevenLabsFakeOptions, 'restrictedApiKey'>> &
      Pick<ElevenLabsFakeOptions, 'restrictedApiKey'>,
    private server: StartedFakeServer | undefined = undefined,
  ) {}

  static async start(options: ElevenLabsFakeOptions): Promise<ElevenLabsFake> {
    const fake = new ElevenLabsFake({ chunks: 5, chunkIntervalMs: 5, ...options });
    fake.server = await startFakeServer({
      request: (req, res, url) => {
        const apiKey = header(req, 'xi-api-key');
        const answer = (status: number, body: unknown) => {
          fake.requests.push({ method: req.method ?? 'GET', path: url.pathname, apiKey, status });
          sendJson(res, status, body);
        };
        if (req.method !== 'GET' || !['/v1/user', '/v1/models'].includes(url.pathname)) {
          return answer(404, { detail: 'Not Found' });
        }
        const failure = fake.failures.next();
        if (failure === 'hang') {
          fake.requests.push({ method: 'GET', path: url.pathname, apiKey, status: 0 });
          return;
        }
        if (failure === 'close') return void res.destroy();
        if (failure === 'error') return answer(500, { detail: { status: 'internal_error', message: SORRY } });
        if (keyMatches(apiKey, fake.options.apiKey)) {
          return answer(
            200,
            url.pathname === '/v1/user'
              ? { user_id: 'fake-user', subscription: { tier: 'creator', status: 'active' } }
              : [{ model_id: 'eleven_flash_v2_5', can_do_text_to_speech: true }],
          );
        }
        if (fake.options.restrictedApiKey && keyMatches(apiKey, fake.options.restrictedApiKey)) {
          return answer(401, {
            detail: {
              status: 'missing_permissions',
              message: 'The API key you used is missing the permission user_read to execute this operation.',
            },
          });
        }
        answer(401, INVALID_KEY);
      },
      upgrade: (req, socket, head, url) => fake.upgrade(req, socket, head, url),
    });
    return fake;
  }

  /** What the platform's ElevenLabs base URL setting takes. */
  get baseUrl(): string {
    return this.server!.url;
  }

  /** After `after` more good requests (generations and REST calls), fail the next `times` the chosen way. */
  fail(mode: FailureMode, { after = 0, times = Infinity }: { after?: number; times?: number } = {}): void {
    this.failures.set(mode, after, times);
  }

  heal(): void {
    this.failures.clear();
  }

  async close(): Promise<void> {
    for (const client of this.wss.clients) client.terminate();
    this.wss.close();
    await this.server?.close();
  }

  /** A key that may synthesize: the account's, or one scoped to speech alone. */
  private knows(key: string): boolean {
    const { apiKey, restrictedApiKey } = this.options;
    return keyMatches(key, apiKey) || (!!restrictedApiKey && keyMatches(key, restrictedApiKey));
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, url: URL): void {
    const match = /^\/v1\/text-to-speech\/([^/]+)\/stream-input$/.exec(url.pathname);
    const headerKey = header(req, 'xi-api-key');
    const refuse = (status: number, body: unknown) => {
      this.upgrades.push({ path: url.pathname, apiKey: headerKey, refused: status });
      refuseUpgrade(socket, status, body);
    };
    if (!match) return refuse(404, { detail: 'Not Found' });
    if (headerKey !== undefined && !this.knows(headerKey)) return refuse(401, INVALID_KEY);
    this.upgrades.push({ path: url.pathname, apiKey: headerKey, refused: undefined });
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      const query = Object.fromEntries(url.searchParams);
      const stream: ElevenLabsStream = {
        apiKey: headerKey,
        voiceId: decodeURIComponent(match[1]),
        modelId: query.model_id,
        outputFormat: query.output_format ?? 'mp3_44100_128',
        languageCode: query.language_code,
        query,
        messages: [],
        voiceSettings: undefined,
        texts: [],
        spoken: [],
        chunksSent: 0,
        chunksPlanned: 0,
        closed: undefined,
      };
      this.streams.push(stream);
      this.serve(ws, stream, headerKey !== undefined);
    });
  }

  private serve(ws: WebSocket, stream: ElevenLabsStream, authenticated: boolean): void {
    const format = OUTPUT_FORMATS[stream.outputFormat];
    const ssml = stream.query.enable_ssml_parsing === 'true';
    const inactivityS = Number(stream.query.inactivity_timeout ?? 20);
    let buffer = '';
    let first = true;
    let ended = false;
    let hung = false;
    /** Generations go out in order, one after the other. */
    let queue = Promise.resolve();
    let idle: NodeJS.Timeout | undefined;

    ws.on('close', (code, reason) => {
      clearTimeout(idle);
      stream.closed ??= { code, reason: reason.toString() };
    });
    const close = (code: number, reason: string) => {
      if (ws.readyState !== WebSocket.OPEN) return;
      // A close reason holds 123 bytes: longer ones arrive cut, as ElevenLabs' own do.
      const cut = closeReason(reason);
      stream.closed = { code, reason: cut };
      ws.close(code, cut);
    };
    const send = (message: Record<string, unknown>) => {
      if (!hung && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
    };
    const armIdle = () => {
      clearTimeout(idle);
      if (!(inactivityS > 0)) return;
      idle = setTimeout(
        () =>
          close(
            1008,
            `Have not received a new text input within the timeout of ${inactivityS} seconds. Streaming input ` +
              'terminated. Please make sure to either feed the input in the timely manner, or to send the end of ' +
              'input text (empty string "") when done.',
          ),
        inactivityS * 1000,
      );
      idle.unref();
    };

    if (format === undefined) return close(1008, `Invalid output format: ${stream.outputFormat}`);
    if (format === null) {
      return close(1008, `the fake serves pcm_<rate> and ulaw_8000 only, not ${stream.outputFormat}`);
    }
    if (stream.languageCode && !LANGUAGE_CODE_MODELS.has(stream.modelId ?? '')) {
      return close(1008, `Model ${stream.modelId ?? 'default'} does not support language_code`);
    }
    armIdle();

    const generate = (text: string, last: boolean) => {
      queue = queue.then(async () => {
        // A hung provider answers nothing more on this socket, not even its close.
        if (hung || ws.readyState !== WebSocket.OPEN) return;
        const spoken = (ssml ? ssmlText(text) : text).replace(/\s+/g, ' ').trim();
        if (spoken) {
          const failure = this.failures.next();
          if (failure === 'hang') {
            hung = true;
            return;
          }
          if (failure === 'error') return close(1008, SORRY);
          stream.spoken.push(spoken);
          const chunks = await speechChunks(spoken, format.rate, format.encoding, this.options.chunks);
          stream.chunksPlanned += chunks.length;
          for (const chunk of chunks) {
            await chunkPause(this.options.chunkIntervalMs);
            if (hung || ws.readyState !== WebSocket.OPEN) return;
            send({ audio: chunk.toString('base64'), normalizedAlignment: null, alignment: null });
            stream.chunksSent++;
            // Dropped mid-answer: the connection goes without a close frame.
            if (failure === 'close') return void ws.terminate();
          }
        }
        if (last) {
          send({ audio: null, isFinal: true, normalizedAlignment: null, alignment: null });
          close(1000, '');
        }
      });
    };

    ws.on('message', (data, isBinary) => {
      if (ended || hung) return;
      armIdle();
      let message: Record<string, unknown>;
      try {
        message = JSON.parse(isBinary ? '' : data.toString()) as Record<string, unknown>;
        if (!message || typeof message !== 'object' || typeof message.text !== 'string') throw new Error();
      } catch {
        return close(1008, 'Invalid message received: expected a JSON object with a text field');
      }
      const { 'xi-api-key': messageKey, ...kept } = message;
      stream.messages.push(kept);
      if (first) {
        first = false;
        if (message.text !== ' ') {
          return close(
            1008,
            'The first message must be the initialisation message: text is a single space " "',
          );
        }
        if (!authenticated) {
          stream.apiKey = typeof messageKey === 'string' ? messageKey : undefined;
          if (typeof messageKey !== 'string' || !this.knows(messageKey))
            return close(1008, 'Invalid API key');
        }
        stream.voiceSettings = message.voice_settings as Record<string, unknown> | undefined;
        return;
      }
      if (
        message.voice_settings !== undefined &&
        JSON.stringify(message.voice_settings) !== JSON.stringify(stream.voiceSettings)
      ) {
        return close(
          1008,
          'voice_settings field must be provided in the first message and then either be not provided or not change.',
        );
      }
      if (message.text === '') {
        ended = true;
        clearTimeout(idle);
        generate(buffer, true);
        buffer = '';
        return;
      }
      if (message.text.trim()) stream.texts.push(message.text);
      buffer += message.text;
      if (message.flush === true) {
        generate(buffer, false);
        buffer = '';
      }
    });
  }
}

/** The reason cut to the 123 bytes a close frame holds, on a character boundary. */
function closeReason(reason: string): string {
  let cut = reason;
  while (Buffer.byteLength(cut) > 123) cut = cut.slice(0, -1);
  return cut;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
