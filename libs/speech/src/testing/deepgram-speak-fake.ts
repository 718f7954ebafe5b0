// A fake of Deepgram's Aura text-to-speech REST API, speaking its published protocol as documented in Deepgram's
// API reference "Text to Speech: Single Text Request" (POST https://api.deepgram.com/v1/speak, API v1, read
// 2026-11) with the Media Output Settings pages (encoding, container, sample_rate combinations) and Voice
// Controls (Aura-2 `speed`, 0.7-1.5), plus "Errors" for the {err_code, err_msg, request_id} error bodies:
// - POST /v1/speak?model=<aura voice>&encoding=linear16&sample_rate=<8000|16000|24000|32000|48000>
//   &container=<wav|none>[&speed=], `Authorization: Token <key>`, JSON body {"text": "..."} (at most 2,000
//   characters); the answer is the audio, chunked, as it is synthesized. linear16 is 16-bit little-endian
//   mono; container defaults to wav (a RIFF header first) and sample_rate to 24000.
// - GET /v1/projects (the key check): {projects:[{project_id, name}]}.
// - WebSocket /v1/listen: live transcription (deepgram-listen-fake.ts), on the same origin as Deepgram serves it.
// - A wrong key: 401 {"err_code":"INVALID_AUTH","err_msg":"Invalid credentials."}.
// The audio is the offline engine's speech of the text (speechPcm), so FakeRecogniser reads the words back.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { pcm16WavHeader } from '@vap/media';
import { readBody, sendJson, type StartedFakeServer, startFakeServer } from '@vap/testing';
import { handleListenUpgrade, refuseListenUpgrade, type DeepgramSession } from './deepgram-listen-fake';
import { FailureSwitch, type FailureMode } from './failure-switch';
import { pcmBytes, speechPcm } from './fake-provider-server';
import {
  DEFAULT_PACING,
  keyMatches,
  newProgress,
  streamInChunks,
  type StreamPacing,
  type StreamProgress,
} from './streamed-answer';

/** One /v1/speak request as the fake saw it. */
export interface DeepgramSpeakRequest extends StreamProgress {
  authorization: string | undefined;
  contentType: string | undefined;
  /** Every query parameter, as sent. */
  query: Record<string, string>;
  model: string;
  encoding: string;
  sampleRate: number;
  container: string;
  speed: number | undefined;
  text: string;
  /** The HTTP status answered (0 while a hang lasts). */
  status: number;
  /** The FailureSwitch failed it. */
  failed: boolean;
}

export interface DeepgramSpeakFakeOptions {
  apiKey: string;
  pacing?: Partial<StreamPacing>;
}

const LINEAR16_RATES = [8000, 16000, 24000, 32000, 48000];
const MAX_TEXT_CHARS = 2000;
const MAX_BODY_BYTES = 64 * 1024;
const AURA_MODEL = /^aura(?:-2)?-[a-z]+-[a-z]{2}$/;

function sendDeepgramError(res: ServerResponse, status: number, errCode: string, errMsg: string): void {
  sendJson(res, status, { err_code: errCode, err_msg: errMsg, request_id: randomUUID() });
}

export class DeepgramSpeakFake {
  readonly requests: DeepgramSpeakRequest[] = [];
  /** Authorization headers of the key checks (GET /v1/projects). */
  readonly projectRequests: { authorization: string | undefined; ok: boolean }[] = [];
  /** Live transcription sessions (/v1/listen), served on the same origin as api.deepgram.com serves both. */
  readonly listens: DeepgramSession[] = [];
  private readonly failures = new FailureSwitch();
  private readonly listenFailures = new FailureSwitch();
  private readonly wss = new WebSocketServer({ noServer: true });

  private constructor(
    private readonly server: StartedFakeServer,
    private readonly apiKey: string,
    private readonly pacing: StreamPacing,
  ) {}

  static async start({ apiKey, pacing }: DeepgramSpeakFakeOptions): Promise<DeepgramSpeakFake> {
    // The server starts first (its port makes the base URL); its handler reaches the fake built after.
    const ref: { fake?: DeepgramSpeakFake } = {};
    const server = await startFakeServer({
      request: (req, res, url) => ref.fake!.handle(req, res, url),
      upgrade: (req, socket, head, url) => ref.fake!.upgrade(req, socket, head, url),
    });
    const fake = new DeepgramSpeakFake(server, apiKey, { ...DEFAULT_PACING, ...pacing });
    ref.fake = fake;
    return fake;
  }

  /** What SPEECH_DEEPGRAM_BASE_URL takes: the origin (the client adds /v1, as for api.deepgram.com). */
  get baseUrl(): string {
    return this.server.url;
  }

  /**
   * After `after` more good requests, the next `times` ones fail the chosen way: syntheses, or with
   * `{ endpoint: 'listen' }` live transcription results (see deepgram-listen-fake.ts).
   */
  fail(
    mode: FailureMode,
    {
      after = 0,
      times = Infinity,
      endpoint = 'speak',
    }: { after?: number; times?: number; endpoint?: 'speak' | 'listen' } = {},
  ): void {
    (endpoint === 'listen' ? this.listenFailures : this.failures).set(mode, after, times);
  }

  heal(): void {
    this.failures.clear();
    this.listenFailures.clear();
  }

  close(): Promise<void> {
    for (const client of this.wss.clients) client.terminate();
    this.wss.close();
    return this.server.close();
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, url: URL): void {
    if (url.pathname.replace(/\/+$/, '') !== '/v1/listen') return void socket.destroy();
    if (this.listenFailures.failing) return refuseListenUpgrade(socket, 503, 'the fake is down');
    handleListenUpgrade(this.wss, req, socket, head, this.apiKey, this.listenFailures, this.listens);
  }

  private authorized(req: IncomingMessage): boolean {
    const header = req.headers.authorization ?? '';
    return header.startsWith('Token ') && keyMatches(header.slice('Token '.length), this.apiKey);
  }

  private async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const path = url.pathname.replace(/\/+$/, '');
    if (path === '/v1/projects' && req.method === 'GET') {
      const ok = this.authorized(req);
      this.projectRequests.push({ authorization: req.headers.authorization, ok });
      if (!ok) return sendDeepgramError(res, 401, 'INVALID_AUTH', 'Invalid credentials.');
      return sendJson(res, 200, { projects: [{ project_id: randomUUID(), name: 'Fake project' }] });
    }
    if (path !== '/v1/speak') return sendDeepgramError(res, 404, 'NOT_FOUND', `No route for ${path}`);
    if (req.method !== 'POST') return sendDeepgramError(res, 405, 'METHOD_NOT_ALLOWED', 'Use POST.');
    if (!this.authorized(req)) return sendDeepgramError(res, 401, 'INVALID_AUTH', 'Invalid credentials.');
    await this.speak(req, res, url);
  }

  private async speak(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const query = Object.fromEntries(url.searchParams);
    let body: Buffer;
    try {
      body = await readBody(req, MAX_BODY_BYTES);
    } catch {
      return sendDeepgramError(res, 413, 'PAYLOAD_TOO_LARGE', `Request body over ${MAX_BODY_BYTES} bytes.`);
    }
    let text: unknown;
    try {
      text = (JSON.parse(body.toString('utf8')) as { text?: unknown }).text;
    } catch {
      return sendDeepgramError(
        res,
        400,
        'Bad Request',
        'Content-type was application/json, but we could not process the JSON payload.',
      );
    }
    if (typeof text !== 'string' || !text.trim()) {
      return sendDeepgramError(res, 400, 'INVALID_JSON', 'Invalid JSON submitted: missing field `text`.');
    }
    if (text.length > MAX_TEXT_CHARS) {
      return sendDeepgramError(
        res,
        400,
        'INVALID_INPUT',
        `Input text is ${text.length} characters, over the limit of ${MAX_TEXT_CHARS}.`,
      );
    }
    const model = query.model ?? 'aura-asteria-en';
    const encoding = query.encoding ?? 'linear16';
    const container = query.container ?? 'wav';
    const sampleRate = query.sample_rate === undefined ? 24000 : Number(query.sample_rate);
    const speed = query.speed === undefined ? undefined : Number(query.speed);
    if (!AURA_MODEL.test(model)) {
      return sendDeepgramError(res, 400, 'INVALID_QUERY_PARAMETER', `No such model: ${model}`);
    }
    // The fake produces linear16 only; the API's other encodings are not used by the platform.
    if (encoding !== 'linear16') {
      return sendDeepgramError(
        res,
        400,
        'UNSUPPORTED_AUDIO_FORMAT',
        `The fake serves encoding=linear16, not ${encoding}`,
      );
    }
    if (!['wav', 'none'].includes(container)) {
      return sendDeepgramError(
        res,
        400,
        'UNSUPPORTED_AUDIO_FORMAT',
        `container=${container} is not valid for linear16`,
      );
    }
    if (!LINEAR16_RATES.includes(sampleRate)) {
      return sendDeepgramError(
        res,
        400,
        'UNSUPPORTED_AUDIO_FORMAT',
        `sample_rate=${query.sample_rate} is not valid for linear16`,
      );
    }
    if (speed !== undefined && !(speed >= 0.7 && speed <= 1.5)) {
      return sendDeepgramError(res, 400, 'INVALID_QUERY_PARAMETER', 'speed must be between 0.7 and 1.5');
    }
    const failure = this.failures.next();
    const record: DeepgramSpeakRequest = {
      authorization: req.headers.authorization,
      contentType: req.headers['content-type'],
      query,
      model,
      encoding,
      sampleRate,
      container,
      speed,
      text,
      status: 0,
      failed: failure !== null,
      ...newProgress(),
    };
    this.requests.push(record);
    if (failure === 'hang') return;
    if (failure === 'error') {
      record.status = 500;
      return sendDeepgramError(
        res,
        500,
        'INTERNAL_SERVER_ERROR',
        'The server encountered an error synthesizing speech.',
      );
    }
    const pcm = pcmBytes(await speechPcm(text, sampleRate));
    const audio = container === 'wav' ? Buffer.concat([pcm16WavHeader(pcm.length, sampleRate), pcm]) : pcm;
    record.status = 200;
    res.writeHead(200, {
      'content-type': container === 'wav' ? 'audio/wav' : 'application/octet-stream',
      'dg-request-id': randomUUID(),
      'dg-model-name': model,
      'dg-char-count': String(text.length),
    });
    await streamInChunks(req, res, audio, this.pacing, record, failure === 'close');
  }
}
