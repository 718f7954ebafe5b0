// A fake Cartesia, speaking the protocol of its public API reference (docs.cartesia.ai, API version 2025-11-04:
// "TTS / WebSocket" and "Voices / List"), as the reference stood in the official cartesia-js SDK 3.5.0 (its
// GenerationRequest, CancelContextRequest and WebsocketResponse types):
// - WebSocket GET /tts/websocket, the key as `Authorization: Bearer <key>` (or the older `X-API-Key` header, or
//   the `api_key` query of browser clients) and the version as the `Cartesia-Version` header (or
//   `cartesia_version` query). A wrong key is refused at the upgrade (401), a missing version too (400).
// - Client messages: generation requests `{context_id, model_id, transcript, voice: {mode: 'id', id},
//   output_format: {container: 'raw', encoding, sample_rate}, language?, generation_config?, speed?, continue?,
//   flush?}` (a context's transcripts are concatenated; `continue: false` ends its input) and cancellations
//   `{context_id, cancel: true}`.
// - Answers, per context: `{type: 'chunk', data: base64, done: false, status_code: 206, step_time, context_id}`
//   chunks (raw pcm_s16le / pcm_f32le / pcm_mulaw), `{type: 'flush_done', flush_id}` after a flush, `{type: 'done',
//   done: true}` once its input ended and all audio went out, `{type: 'error', title, message, status_code,
//   done: true}` on failure. The audio is speechPcm(transcript), so a recogniser reads the words back.
// - GET /voices with the same headers: 200 `{data, has_more, next_page}`, or 401.
import { randomUUID } from 'node:crypto';
import { sendJson, type StartedFakeServer, startFakeServer } from '@vap/testing';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import WebSocket, { WebSocketServer } from 'ws';
import { FailureSwitch, type FailureMode } from './failure-switch';
import { refuseUpgrade } from './fake-provider-server';
import { keyMatches } from './streamed-answer';
import { chunkPause, speechChunks, type FakeEncoding } from './streamed-speech';

/** One context (one utterance) of a connection, as the fake saw it. */
export interface CartesiaContext {
  contextId: string;
  modelId: unknown;
  voice: unknown;
  outputFormat: unknown;
  language: unknown;
  generationConfig: unknown;
  speed: unknown;
  /** The transcripts sent for it, in order, as sent. */
  transcripts: string[];
  /** What each generation spoke. */
  spoken: string[];
  chunksSent: number;
  chunksPlanned: number;
  cancelled: boolean;
  done: boolean;
}

/** One WebSocket connection, as the fake saw it. */
export interface CartesiaConnection {
  /** The key the client authenticated with, and how it came. */
  apiKey: string | undefined;
  auth: 'bearer' | 'x-api-key' | 'query' | undefined;
  version: string | undefined;
  /** Client messages in order, parsed. */
  messages: Record<string, unknown>[];
  contexts: CartesiaContext[];
  closed: { code: number; reason: string } | undefined;
}

export interface CartesiaRestRequest {
  method: string;
  path: string;
  apiKey: string | undefined;
  version: string | undefined;
  status: number;
}

export interface CartesiaFakeOptions {
  apiKey: string;
  chunks?: number;
  chunkIntervalMs?: number;
}

const SAMPLE_RATES = new Set([8000, 16000, 22050, 24000, 44100, 48000]);
const ENCODINGS = new Set(['pcm_s16le', 'pcm_f32le', 'pcm_mulaw']);
const MAX_MESSAGE_BYTES = 1 << 20;

function errorBody(status: number, title: string, message: string) {
  return {
    title,
    message,
    error_code: title.toLowerCase().replace(/\s+/g, '_'),
    status_code: status,
    request_id: randomUUID(),
  };
}

export class CartesiaFake {
  readonly connections: CartesiaConnection[] = [];
  readonly requests: CartesiaRestRequest[] = [];
  readonly upgrades: { apiKey: string | undefined; refused: number | undefined }[] = [];
  private readonly failures = new FailureSwitch();
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  private server: StartedFakeServer | undefined;

  private constructor(private readonly options: Required<CartesiaFakeOptions>) {}

  static async start(options: CartesiaFakeOptions): Promise<CartesiaFake> {
    const fake = new CartesiaFake({ chunks: 5, chunkIntervalMs: 5, ...options });
    fake.server = await startFakeServer({
      request: (req, res, url) => {
        const { apiKey } = credentials(req, url);
        const version = header(req, 'cartesia-version');
        const answer = (status: number, body: unknown) => {
          fake.requests.push({ method: req.method ?? 'GET', path: url.pathname, apiKey, version, status });
          sendJson(res, status, body);
        };
        if (req.method !== 'GET' || url.pathname !== '/voices') {
          return answer(404, errorBody(404, 'Not Found', `No route for ${req.method} ${url.pathname}`));
        }
        const failure = fake.failures.next();
        if (failure === 'hang') {
          fake.requests.push({ method: 'GET', path: url.pathname, apiKey, version, status: 0 });
          return;
        }
        if (failure === 'close') return void res.destroy();
        if (failure === 'error')
          return answer(500, errorBody(500, 'Internal Server Error', 'the fake failed'));
        if (!version)
          return answer(400, errorBody(400, 'Bad Request', 'Cartesia-Version header is required'));
        if (!keyMatches(apiKey, fake.options.apiKey))
          return answer(401, errorBody(401, 'Unauthorized', 'Invalid API key'));
        answer(200, {
          data: [
            {
              id: 'f786b574-daa5-4673-aa0c-cbe3e8534c02',
              name: 'Fake voice',
              language: 'en',
              is_public: true,
            },
          ],
          has_more: false,
          next_page: null,
        });
      },
      upgrade: (req, socket, head, url) => fake.upgrade(req, socket, head, url),
    });
    return fake;
  }

  /** What the platform's Cartesia base URL setting takes. */
  get baseUrl(): string {
    return this.server!.url;
  }

  /** Every context of every connection, in the order they began. */
  get contexts(): CartesiaContext[] {
    return this.connections.flatMap((c) => c.contexts);
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

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, url: URL): void {
    const { apiKey, auth } = credentials(req, url);
    const version = header(req, 'cartesia-version') ?? url.searchParams.get('cartesia_version') ?? undefined;
    const refuse = (status: number, body: unknown) => {
      this.upgrades.push({ apiKey, refused: status });
      refuseUpgrade(socket, status, body);
    };
    if (url.pathname !== '/tts/websocket') return refuse(404, errorBody(404, 'Not Found', 'No such socket'));
    if (!keyMatches(apiKey, this.options.apiKey))
      return refuse(401, errorBody(401, 'Unauthorized', 'Invalid API key'));
    if (!version) return refuse(400, errorBody(400, 'Bad Request', 'Cartesia-Version header is required'));
    this.upgrades.push({ apiKey, refused: undefined });
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      const connection: CartesiaConnection = {
        apiKey,
        auth,
        version,
        messages: [],
        contexts: [],
        closed: undefined,
      };
      this.connections.push(connection);
      this.serve(ws, connection);
    });
  }

  private serve(ws: WebSocket, connection: CartesiaConnection): void {
    /** Generations go out in order of their requests. */
    let queue = Promise.resolve();
    let hung = false;
    let flushes = 0;
    const pending = new Map<string, string>();
    ws.on('close', (code, reason) => (connection.closed ??= { code, reason: reason.toString() }));
    const send = (message: Record<string, unknown>) => {
      if (!hung && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
    };
    const error = (contextId: unknown, status: number, title: string, message: string) =>
      send({
        type: 'error',
        ...(typeof contextId === 'string' ? { context_id: contextId } : {}),
        ...errorBody(status, title, message),
        done: true,
      });

    ws.on('message', (data, isBinary) => {
      if (hung) return;
      let message: Record<string, unknown>;
      try {
        message = JSON.parse(isBinary ? '' : data.toString()) as Record<string, unknown>;
        if (!message || typeof message !== 'object' || Array.isArray(message)) throw new Error();
      } catch {
        return error(undefined, 400, 'Invalid request', 'could not parse the message as a JSON object');
      }
      connection.messages.push(message);
      const contextId = message.context_id;
      if (typeof contextId !== 'string' || !contextId) {
        return error(undefined, 400, 'Invalid request', 'context_id is required');
      }
      let context = connection.contexts.find((c) => c.contextId === contextId);
      if (message.cancel === true) {
        if (context) context.cancelled = true;
        pending.delete(contextId);
        return;
      }
      const problem = requestProblem(message);
      if (problem) return error(contextId, 400, 'Invalid request', problem);
      if (context?.done)
        return error(contextId, 400, 'Invalid request', `context ${contextId} is already done`);
      if (!context) {
        context = {
          contextId,
          modelId: message.model_id,
          voice: message.voice,
          outputFormat: message.output_format,
          language: message.language,
          generationConfig: message.generation_config,
          speed: message.speed,
          transcripts: [],
          spoken: [],
          chunksSent: 0,
          chunksPlanned: 0,
          cancelled: false,
          done: false,
        };
        connection.contexts.push(context);
      }
      const transcript = message.transcript as string;
      if (transcript) context.transcripts.push(transcript);
      pending.set(contextId, (pending.get(contextId) ?? '') + transcript);
      const last = message.continue !== true;
      const flushId = message.flush === true ? ++flushes : undefined;
      if (!last && flushId === undefined) return;
      const text = pending.get(contextId) ?? '';
      pending.delete(contextId);
      const ctx = context;
      const format = message.output_format as { encoding: FakeEncoding; sample_rate: number };
      queue = queue.then(async () => {
        if (ws.readyState !== WebSocket.OPEN || ctx.cancelled) return;
        const spoken = text.replace(/\s+/g, ' ').trim();
        if (spoken) {
          const failure = this.failures.next();
          if (failure === 'hang') {
            hung = true;
            return;
          }
          if (failure === 'error')
            return error(ctx.contextId, 500, 'Internal Server Error', 'the fake failed');
          ctx.spoken.push(spoken);
          const chunks = await speechChunks(spoken, format.sample_rate, format.encoding, this.options.chunks);
          ctx.chunksPlanned += chunks.length;
          for (const chunk of chunks) {
            const started = Date.now();
            await chunkPause(this.options.chunkIntervalMs);
            // A cancelled context stops generating.
            if (hung || ctx.cancelled || ws.readyState !== WebSocket.OPEN) return;
            send({
              type: 'chunk',
              data: chunk.toString('base64'),
              done: false,
              status_code: 206,
              step_time: Date.now() - started,
              context_id: ctx.contextId,
            });
            ctx.chunksSent++;
            if (failure === 'close') return void ws.terminate();
          }
        }
        if (flushId !== undefined) {
          send({
            type: 'flush_done',
            context_id: ctx.contextId,
            flush_id: flushId,
            done: false,
            status_code: 206,
          });
        }
        if (last) {
          ctx.done = true;
          send({ type: 'done', context_id: ctx.contextId, done: true, status_code: 206 });
        }
      });
    });
  }
}

/** Why a generation request is malformed, or undefined. */
function requestProblem(message: Record<string, unknown>): string | undefined {
  if (typeof message.model_id !== 'string' || !message.model_id) return 'model_id is required';
  if (typeof message.transcript !== 'string') return 'transcript is required';
  const voice = message.voice as Record<string, unknown> | undefined;
  if (!voice || voice.mode !== 'id' || typeof voice.id !== 'string' || !voice.id) {
    return "voice must be {mode: 'id', id}";
  }
  const format = message.output_format as Record<string, unknown> | undefined;
  if (!format || format.container !== 'raw') return "output_format.container must be 'raw' on the WebSocket";
  if (!ENCODINGS.has(format.encoding as string)) {
    return `the fake serves pcm_s16le, pcm_f32le and pcm_mulaw, not ${String(format.encoding)}`;
  }
  if (!SAMPLE_RATES.has(format.sample_rate as number))
    return `unsupported sample_rate ${String(format.sample_rate)}`;
  const speed = (message.generation_config as Record<string, unknown> | undefined)?.speed;
  if (speed !== undefined && !(typeof speed === 'number' && speed >= 0.6 && speed <= 1.5)) {
    return 'generation_config.speed must be between 0.6 and 1.5';
  }
  return undefined;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The key a request carries, and how. */
function credentials(
  req: IncomingMessage,
  url: URL,
): { apiKey: string | undefined; auth: CartesiaConnection['auth'] } {
  const bearer = /^Bearer (.+)$/.exec(header(req, 'authorization') ?? '')?.[1];
  if (bearer) return { apiKey: bearer, auth: 'bearer' };
  const legacy = header(req, 'x-api-key');
  if (legacy) return { apiKey: legacy, auth: 'x-api-key' };
  const query = url.searchParams.get('api_key');
  if (query) return { apiKey: query, auth: 'query' };
  return { apiKey: undefined, auth: undefined };
}
