// A fake Gemini API, speaking "Gemini API v1beta streamGenerateContent" as its reference describes it
// (https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent, as of 2025-06) on a local port:
// - POST /v1beta/models/{model}:streamGenerateContent?alt=sse, the key as `x-goog-api-key` (or `?key=`). A body of
//   GenerateContentRequest (contents with roles user/model and parts text / functionCall / functionResponse,
//   systemInstruction, tools [{functionDeclarations}], generationConfig); an unknown field is refused with 400
//   INVALID_ARGUMENT, as Google's JSON mapping does. Answered with server-sent events, each a
//   GenerateContentResponse: candidates[0].content.parts (text in pieces; a functionCall whole), the last chunk's
//   finishReason, and usageMetadata (running counts, whole on the last chunk).
// - GET /v1beta/models (the platform's key check): the models for its key, 400 API_KEY_INVALID for another, as
//   Google answers a key it does not know.
// - Errors as Google's `{error: {code, message, status, details}}`.
// With `live`, the same port also takes the Gemini Live WebSocket (FakeGeminiLiveServer, its upgrades relayed to
// it), so one MODEL_GOOGLE_BASE_URL points at both, as one Google key and base URL serve both.
// It records each request (key, model, generationConfig, systemInstruction, contents, tools) and answers what the
// spec scripted: text in several chunks, function calls, a failure status, a hang before the answer, a stall
// mid-stream.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { readBody, startFakeServer, type StartedFakeServer } from '@vap/testing';
import { FakeGeminiLiveServer, type FakeGeminiLiveOptions } from './fake-gemini-live-server';

export interface FakeGeminiRequest {
  /** The key the request carried (header or query). */
  apiKey: string | undefined;
  model: string;
  body: Record<string, unknown>;
  generationConfig: Record<string, unknown> | undefined;
  systemInstruction: { parts?: { text?: string }[] } | undefined;
  contents: { role?: string; parts?: Record<string, unknown>[] }[];
  tools: { functionDeclarations?: Record<string, unknown>[] }[] | undefined;
  /** Settles when the answer's connection closes (its end, or the client going away), with performance.now(). */
  closed: Promise<number>;
}

export type FakeGeminiReply =
  /**
   * A reply as Gemini streams it: each text piece a chunk, then the function calls (each whole, in the chunk with
   * the finishReason unless `callsApart`), usageMetadata on every chunk. `finishReason` defaults to STOP;
   * `stallAfter`: only that many chunks are sent, then the stream stays open and silent.
   */
  | {
      kind: 'reply';
      text?: string[];
      functionCalls?: { name: string; args: Record<string, unknown> }[];
      callsApart?: boolean;
      finishReason?: string;
      usage?: { inputTokens: number; outputTokens: number };
      stallAfter?: number;
    }
  /** An error status with Google's error body. */
  | { kind: 'error'; status: number; message: string; googleStatus?: string; reason?: string }
  /** No answer at all, not even headers. */
  | { kind: 'hang' }
  /** Headers sent, then nothing. */
  | { kind: 'silent-body' }
  /** Raw events: each string one `data:` payload, then the stream ends. */
  | { kind: 'sse'; events: string[] };

export interface FakeGeminiOptions {
  apiKey?: string;
  /** Also serve Gemini Live on the same port (its options; its key is this fake's). */
  live?: boolean | Omit<FakeGeminiLiveOptions, 'apiKey'>;
  /** Pause between streamed chunks. */
  gapMs?: number;
}

/** Models the fake lists on the key check. */
const LISTED = ['gemini-2.5-flash', 'gemini-2.5-pro', 'gemini-2.0-flash'];
const REQUEST_FIELDS = new Set([
  'contents',
  'systemInstruction',
  'tools',
  'toolConfig',
  'generationConfig',
  'safetySettings',
  'cachedContent',
]);
const GENERATION_FIELDS = new Set([
  'temperature',
  'topP',
  'topK',
  'maxOutputTokens',
  'candidateCount',
  'stopSequences',
  'responseMimeType',
  'responseSchema',
  'presencePenalty',
  'frequencyPenalty',
  'seed',
  'thinkingConfig',
]);
const STREAM_PATH = /^\/v1beta\/models\/([^/:]+):streamGenerateContent$/;

export class FakeGeminiServer {
  readonly requests: FakeGeminiRequest[] = [];
  /** GET /v1beta/models, with the key each carried and the status answered. */
  readonly keyChecks: { apiKey: string | undefined; status: number }[] = [];
  /** Scripted replies, first in first out; when none is left, `respond` answers. */
  private readonly queue: FakeGeminiReply[] = [];
  respond: (request: FakeGeminiRequest) => FakeGeminiReply = () => ({
    kind: 'reply',
    text: ['Hello', ' from Gemini.'],
  });
  readonly apiKey: string;
  /** While set, key checks answer this error, whatever the key (403 for a project without the API, a 5xx). */
  keyCheckFailure: { status: number; message: string; googleStatus: string } | null = null;
  /** The Gemini Live fake behind the same port, with `live`. */
  live: FakeGeminiLiveServer | null = null;
  private server!: StartedFakeServer;
  /** The connections relayed to the Live fake, which its close does not reach. */
  private readonly sockets = new Set<Socket | Duplex>();
  private readonly timers = new Set<NodeJS.Timeout>();

  private constructor(private readonly options: FakeGeminiOptions) {
    this.apiKey = options.apiKey ?? 'fake-gemini-api-key';
  }

  static async start(options: FakeGeminiOptions = {}): Promise<FakeGeminiServer> {
    const fake = new FakeGeminiServer(options);
    if (options.live)
      fake.live = await FakeGeminiLiveServer.start({
        ...(typeof options.live === 'object' ? options.live : {}),
        apiKey: fake.apiKey,
      });
    fake.server = await startFakeServer({
      request: (req, res) => fake.handle(req, res),
      upgrade: (req, socket, head) => fake.relayUpgrade(req, socket, head),
    });
    return fake;
  }

  /** What MODEL_GOOGLE_BASE_URL takes: http://127.0.0.1:<port> (the REST API under /v1beta, Live beside it). */
  get baseUrl(): string {
    return this.server.url;
  }

  /** The REST API's base, as Google's default base URL names it. */
  get apiUrl(): string {
    return `${this.baseUrl}/v1beta`;
  }

  get last(): FakeGeminiRequest {
    const last = this.requests[this.requests.length - 1];
    if (!last) throw new Error('the fake Gemini server has had no generateContent request');
    return last;
  }

  /** The next replies, in order. */
  script(...replies: FakeGeminiReply[]): void {
    this.queue.push(...replies);
  }

  async close(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    for (const s of this.sockets) s.destroy();
    await this.server.close();
    await this.live?.close();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const header = req.headers['x-goog-api-key'];
    const apiKey = (Array.isArray(header) ? header[0] : header) ?? url.searchParams.get('key') ?? undefined;
    const raw = (await readBody(req)).toString('utf8');
    if (req.method === 'GET' && url.pathname === '/v1beta/models') {
      const failure = this.keyCheckFailure;
      const ok = apiKey === this.apiKey;
      this.keyChecks.push({ apiKey, status: failure?.status ?? (ok ? 200 : 400) });
      if (failure) return googleError(res, failure.status, failure.message, failure.googleStatus);
      if (!ok) return badKey(res);
      return json(res, 200, {
        models: LISTED.map((id) => ({
          name: `models/${id}`,
          displayName: id,
          supportedGenerationMethods: ['generateContent', 'countTokens'],
        })),
      });
    }
    const match = req.method === 'POST' ? STREAM_PATH.exec(url.pathname) : null;
    if (!match) return googleError(res, 404, 'Method not found.', 'NOT_FOUND');
    if (apiKey !== this.apiKey) return badKey(res);
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return googleError(res, 400, 'Invalid JSON payload received.', 'INVALID_ARGUMENT');
    }
    const refusal = invalid(body);
    if (refusal) return googleError(res, 400, refusal, 'INVALID_ARGUMENT');
    const recorded: FakeGeminiRequest = {
      apiKey,
      model: decodeURIComponent(match[1]),
      body,
      generationConfig: body.generationConfig as FakeGeminiRequest['generationConfig'],
      systemInstruction: body.systemInstruction as FakeGeminiRequest['systemInstruction'],
      contents: body.contents as FakeGeminiRequest['contents'],
      tools: body.tools as FakeGeminiRequest['tools'],
      closed: new Promise<number>((resolve) => res.on('close', () => resolve(performance.now()))),
    };
    this.requests.push(recorded);
    void this.answer(res, this.queue.shift() ?? this.respond(recorded), url.searchParams.get('alt'));
  }

  private async answer(res: ServerResponse, reply: FakeGeminiReply, alt: string | null): Promise<void> {
    if (reply.kind === 'hang') return;
    if (reply.kind === 'error')
      return googleError(res, reply.status, reply.message, reply.googleStatus, reply.reason);
    // Without alt=sse Google streams one JSON array, which no client of ours reads: refuse it loudly.
    if (alt !== 'sse')
      return googleError(res, 400, 'this fake streams only with alt=sse', 'INVALID_ARGUMENT');
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.flushHeaders();
    if (reply.kind === 'silent-body') return;
    const events = reply.kind === 'sse' ? reply.events : replyEvents(reply);
    const limit = reply.kind === 'reply' ? (reply.stallAfter ?? Infinity) : Infinity;
    for (const [i, event] of events.entries()) {
      if (i >= limit) return;
      if (i > 0) await this.pause(this.options.gapMs ?? 5);
      if (res.destroyed) return;
      res.write(`data: ${event}\r\n\r\n`);
    }
    res.end();
  }

  /** Relays a WebSocket upgrade to the Live fake, byte for byte (its own checks answer it). */
  private relayUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    if (!this.live) {
      socket.end('HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
      return;
    }
    const upstream = connect(Number(new URL(this.live.baseUrl).port), '127.0.0.1');
    this.sockets.add(upstream);
    upstream.on('close', () => this.sockets.delete(upstream));
    const lines = [`${req.method} ${req.url} HTTP/1.1`];
    for (let i = 0; i < req.rawHeaders.length; i += 2)
      lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
    upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
    if (head.length) upstream.write(head);
    socket.pipe(upstream).pipe(socket);
    const end = () => {
      socket.destroy();
      upstream.destroy();
    };
    socket.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.timers.delete(t);
        resolve();
      }, ms);
      this.timers.add(t);
    });
  }
}

/** The reply's GenerateContentResponse chunks, as JSON. */
function replyEvents(reply: Extract<FakeGeminiReply, { kind: 'reply' }>): string[] {
  const usage = reply.usage ?? { inputTokens: 25, outputTokens: 9 };
  const calls = (reply.functionCalls ?? []).map((c) => ({ functionCall: { name: c.name, args: c.args } }));
  const pieces = reply.text ?? [];
  const bodies: Record<string, unknown>[][] = pieces.map((text) => [{ text }]);
  if (calls.length && reply.callsApart) bodies.push(...calls.map((c) => [c]));
  else if (calls.length) bodies.push(calls);
  if (!bodies.length) bodies.push([{ text: '' }]);
  return bodies.map((parts, i) => {
    const lastChunk = i === bodies.length - 1;
    return JSON.stringify({
      candidates: [
        {
          content: { parts, role: 'model' },
          index: 0,
          ...(lastChunk ? { finishReason: reply.finishReason ?? 'STOP' } : {}),
        },
      ],
      usageMetadata: {
        promptTokenCount: usage.inputTokens,
        // Running counts: whole on the last chunk.
        candidatesTokenCount: lastChunk
          ? usage.outputTokens
          : Math.floor((usage.outputTokens * (i + 1)) / bodies.length),
        totalTokenCount: usage.inputTokens + usage.outputTokens,
      },
      modelVersion: 'fake-gemini',
      responseId: `fake-${i}`,
    });
  });
}

/** Why Google would refuse this GenerateContentRequest, or null. */
function invalid(body: Record<string, unknown>): string | null {
  for (const key of Object.keys(body))
    if (!REQUEST_FIELDS.has(key))
      return `Invalid JSON payload received. Unknown name "${key}": Cannot find field.`;
  const config = (body.generationConfig ?? {}) as Record<string, unknown>;
  for (const key of Object.keys(config))
    if (!GENERATION_FIELDS.has(key))
      return `Invalid JSON payload received. Unknown name "${key}" at 'generation_config': Cannot find field.`;
  const contents = body.contents;
  if (!Array.isArray(contents) || contents.length === 0)
    return '* GenerateContentRequest.contents: contents is not specified';
  for (const content of contents as { role?: unknown; parts?: unknown }[]) {
    if (content.role !== 'user' && content.role !== 'model')
      return `Please use a valid role: user, model. Got ${String(content.role)}.`;
    if (!Array.isArray(content.parts) || content.parts.length === 0)
      return '* GenerateContentRequest.contents.parts: contents.parts must not be empty.';
    for (const part of content.parts as Record<string, unknown>[]) {
      const kinds = ['text', 'functionCall', 'functionResponse'].filter((k) => part[k] !== undefined);
      if (kinds.length !== 1) return '* GenerateContentRequest.contents.parts: a part holds one kind of data';
    }
  }
  return null;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
  res.end(JSON.stringify(body));
}

function googleError(
  res: ServerResponse,
  status: number,
  message: string,
  googleStatus = 'INVALID_ARGUMENT',
  reason?: string,
): void {
  json(res, status, {
    error: {
      code: status,
      message,
      status: googleStatus,
      ...(reason
        ? {
            details: [
              {
                '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
                reason,
                domain: 'googleapis.com',
                metadata: { service: 'generativelanguage.googleapis.com' },
              },
            ],
          }
        : {}),
    },
  });
}

/** Google's answer to a key it does not know. */
function badKey(res: ServerResponse): void {
  googleError(
    res,
    400,
    'API key not valid. Please pass a valid API key.',
    'INVALID_ARGUMENT',
    'API_KEY_INVALID',
  );
}
