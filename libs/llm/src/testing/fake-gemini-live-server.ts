// A fake Gemini Live API, speaking the protocol of its reference (https://ai.google.dev/api/live, v1beta
// BidiGenerateContent, as of 2025-06) on a local port:
// - WebSocket GET /ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent, the key as
//   `x-goog-api-key` or `?key=` (a wrong key: 403 at the upgrade).
// - The first message must be `setup` (model `models/...`), answered by `setupComplete`; anything else first, or
//   a second setup, closes the socket with 1007 as the service does.
// - realtimeInput.audio {mimeType 'audio/pcm;rate=16000', data} (the older realtimeInput.mediaChunks too). Its
//   activity detection hears the caller (FakeCallerEars): speech over a reply under way -> serverContent
//   {interrupted: true} and the reply stops; the end of an utterance -> serverContent.inputTranscription, then
//   the model turn.
// - A turn: serverContent.modelTurn.parts[].inlineData (audio/pcm;rate=24000, 100 ms chunks) beside
//   serverContent.outputTranscription pieces; tool calls as toolCall {functionCalls [{id, name, args}]} with the
//   turn's usageMetadata, the model going on in a turn of its own once toolResponse {functionResponses} came;
//   then generationComplete and turnComplete with usageMetadata.
// - clientContent {turns, turnComplete}: turns are kept; turnComplete true asks for a turn.
// - GET .../models (the platform's key check): the models with the right key, 400 with another.
// It records what it was asked (key, setup, audio bytes in, client content, tool responses) and can fail its next
// turns (a close with 1011, silence, a dropped socket) or refuse the upgrade.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import WebSocket, { WebSocketServer } from 'ws';
import {
  audioChunks,
  chunkGap,
  defaultUsage,
  echoRealtimeScript,
  fakeSpeech,
  FakeCallerEars,
  FakeRealtimeFailures,
  transcriptPieces,
  type FakeRealtimeFailure,
  type FakeRealtimeInput,
  type FakeRealtimeReply,
  type FakeRealtimeScript,
} from './fake-realtime-conversation';

const PATH = '/ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent';
const INPUT_RATE = 16_000;
const OUTPUT_RATE = 24_000;

/** One model turn as the fake gave it. */
export interface FakeLiveTurn {
  id: number;
  say: string;
  toolCalls: { id: string; name: string; args: Record<string, unknown> }[];
  usage: { inputTokens: number; outputTokens: number };
  status: 'in_progress' | 'completed' | 'interrupted' | 'failed' | 'stalled' | 'waiting_for_tools';
  chunksSent: number;
}

export interface FakeLiveConnection {
  apiKey: string | undefined;
  auth: 'header' | 'query' | undefined;
  setup: Record<string, unknown> | null;
  audioBytesIn: number;
  /** The audio mime types the client sent. */
  mimeTypes: string[];
  callerTexts: string[];
  /** Every clientContent message, in order. */
  clientContents: Record<string, unknown>[];
  toolResponses: Record<string, unknown>[];
  turns: FakeLiveTurn[];
  closed: { code: number; reason: string } | null;
}

export interface FakeGeminiLiveOptions {
  apiKey?: string;
  chunkGapMs?: number;
}

export class FakeGeminiLiveServer {
  readonly connections: FakeLiveConnection[] = [];
  /** HTTP requests (the key checks), with the key each carried. */
  readonly keyChecks: { path: string; apiKey: string | undefined }[] = [];
  script: FakeRealtimeScript = echoRealtimeScript;
  refuseWith: number | null = null;
  /** New connections take their setup and never answer it (a provider that hangs while opening). */
  silentOpen = false;
  readonly apiKey: string;
  private readonly failures = new FakeRealtimeFailures();
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 16 << 20 });
  private readonly sockets = new Set<Socket>();
  private server!: Server;
  private stopped = false;

  private constructor(private readonly options: FakeGeminiLiveOptions) {
    this.apiKey = options.apiKey ?? 'fake-gemini-live-key';
  }

  static async start(options: FakeGeminiLiveOptions = {}): Promise<FakeGeminiLiveServer> {
    const fake = new FakeGeminiLiveServer(options);
    fake.server = createServer((req, res) => fake.request(req, res));
    fake.server.on('connection', (s) => {
      fake.sockets.add(s);
      s.on('close', () => fake.sockets.delete(s));
    });
    fake.server.on('upgrade', (req, socket, head) => fake.upgrade(req, socket, head));
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  /** What MODEL_GOOGLE_BASE_URL takes: http://127.0.0.1:<port>. */
  get baseUrl(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  get last(): FakeLiveConnection | undefined {
    return this.connections[this.connections.length - 1];
  }

  fail(
    mode: FakeRealtimeFailure,
    { after = 0, times = Infinity }: { after?: number; times?: number } = {},
  ): void {
    this.failures.set(mode, after, times);
  }

  heal(): void {
    this.failures.clear();
    this.refuseWith = null;
    this.silentOpen = false;
  }

  async close(): Promise<void> {
    this.stopped = true;
    for (const client of this.wss.clients) client.terminate();
    this.wss.close();
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** GET .../models (the platform's key check): the models with the right key, 400 as Google answers another. */
  private request(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://fake');
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const header = req.headers['x-goog-api-key'];
    const apiKey = (Array.isArray(header) ? header[0] : header) ?? url.searchParams.get('key') ?? undefined;
    this.keyChecks.push({ path: url.pathname, apiKey });
    if (req.method !== 'GET' || !/\/models$/.test(url.pathname))
      return answer(404, { error: { code: 404, message: 'Not found', status: 'NOT_FOUND' } });
    if (apiKey !== this.apiKey)
      return answer(400, {
        error: {
          code: 400,
          message: 'API key not valid. Please pass a valid API key.',
          status: 'INVALID_ARGUMENT',
        },
      });
    answer(200, {
      models: ['gemini-live-2.5-flash-preview', 'gemini-2.0-flash-live-001'].map((id) => ({
        name: `models/${id}`,
        displayName: id,
        supportedGenerationMethods: ['bidiGenerateContent'],
      })),
    });
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://fake');
    const refuse = (status: number, message: string, state: string) => {
      const body = JSON.stringify({ error: { code: status, message, status: state } });
      socket.end(
        `HTTP/1.1 ${status} Refused\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
    };
    const header = req.headers['x-goog-api-key'];
    const query = url.searchParams.get('key');
    const apiKey = (Array.isArray(header) ? header[0] : header) ?? query ?? undefined;
    if (url.pathname !== PATH) return refuse(404, 'Method not found.', 'NOT_FOUND');
    if (this.refuseWith !== null)
      return refuse(this.refuseWith, 'The service is currently unavailable.', 'UNAVAILABLE');
    if (apiKey !== this.apiKey)
      return refuse(403, 'API key not valid. Please pass a valid API key.', 'PERMISSION_DENIED');
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      const connection: FakeLiveConnection = {
        apiKey,
        auth: header ? 'header' : 'query',
        setup: null,
        audioBytesIn: 0,
        mimeTypes: [],
        callerTexts: [],
        clientContents: [],
        toolResponses: [],
        turns: [],
        closed: null,
      };
      this.connections.push(connection);
      new LiveConversation(this, ws, connection, this.options.chunkGapMs ?? 5).start();
    });
  }

  /** @internal */
  nextFailure(): FakeRealtimeFailure | null {
    return this.failures.next();
  }

  /** @internal */
  get isStopped(): boolean {
    return this.stopped;
  }
}

class LiveConversation {
  private readonly ears = new FakeCallerEars(INPUT_RATE);
  private active: { turn: FakeLiveTurn; stop: boolean } | null = null;
  /** A turn waiting for its tool responses, and the rest of its script. */
  private waiting: { turn: FakeLiveTurn; stop: boolean } | null = null;
  private queue: Promise<void> = Promise.resolve();
  private hung = false;

  constructor(
    private readonly fake: FakeGeminiLiveServer,
    private readonly ws: WebSocket,
    private readonly connection: FakeLiveConnection,
    private readonly gapMs: number,
  ) {}

  start(): void {
    this.ws.on('close', (code, reason) => {
      this.connection.closed ??= { code, reason: reason.toString() };
      if (this.active) this.active.stop = true;
    });
    this.ws.on('message', (data) => this.message(data.toString()));
  }

  /** Gemini sends its JSON as binary frames. */
  private send(message: Record<string, unknown>): void {
    if (this.hung || this.ws.readyState !== WebSocket.OPEN) return;
    this.ws.send(Buffer.from(JSON.stringify(message)), { binary: true });
  }

  private refuse(reason: string): void {
    this.ws.close(1007, reason);
  }

  private message(text: string): void {
    if (this.hung) return;
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return this.refuse('Request contains an invalid argument.');
    }
    const { connection } = this;
    if (message.setup !== undefined) {
      const setup = message.setup as Record<string, unknown>;
      if (connection.setup) return this.refuse('setup must be the first message and only once');
      if (typeof setup.model !== 'string' || !setup.model.startsWith('models/'))
        return this.refuse('Invalid model name: it must be models/<model>.');
      connection.setup = setup;
      if (this.fake.silentOpen) {
        this.hung = true;
        return;
      }
      this.send({ setupComplete: {} });
      return;
    }
    if (!connection.setup) return this.refuse('setup must be the first message');
    const input = message.realtimeInput as Record<string, unknown> | undefined;
    if (input) {
      const blobs = [
        ...(input.audio ? [input.audio] : []),
        ...(Array.isArray(input.mediaChunks) ? input.mediaChunks : []),
      ] as { mimeType?: string; data?: string }[];
      for (const blob of blobs) {
        if (!connection.mimeTypes.includes(String(blob.mimeType)))
          connection.mimeTypes.push(String(blob.mimeType));
        if (blob.mimeType !== `audio/pcm;rate=${INPUT_RATE}`)
          return this.refuse(`unsupported audio mime type ${String(blob.mimeType)}`);
        const bytes = Buffer.from(blob.data ?? '', 'base64');
        connection.audioBytesIn += bytes.length;
        this.hear(new Int16Array(new Uint8Array(bytes).buffer, 0, bytes.length >> 1));
      }
      return;
    }
    if (message.clientContent !== undefined) {
      const content = message.clientContent as Record<string, unknown>;
      connection.clientContents.push(content);
      if (content.turnComplete === true) this.turn({ kind: 'respond', lastUserText: this.lastUserText() });
      return;
    }
    if (message.toolResponse !== undefined) {
      const response = message.toolResponse as { functionResponses?: Record<string, unknown>[] };
      connection.toolResponses.push(response as Record<string, unknown>);
      const waiting = this.waiting;
      if (!waiting) return;
      this.waiting = null;
      const results = (response.functionResponses ?? []).map((r) => ({
        callId: String(r.id),
        name: String(r.name),
        output: String(
          (r.response as Record<string, unknown> | undefined)?.output ?? JSON.stringify(r.response),
        ),
      }));
      this.turn({ kind: 'tool_results', results });
      return;
    }
    this.refuse('Request contains an invalid argument.');
  }

  /** The latest user turn the client gave (its text). */
  private lastUserText(): string | null {
    const turns = this.connection.clientContents.flatMap(
      (c) => (c.turns as { role?: string; parts?: { text?: unknown }[] }[] | undefined) ?? [],
    );
    for (let i = turns.length - 1; i >= 0; i--) {
      const text = turns[i].parts?.[0]?.text;
      if (turns[i].role === 'user' && typeof text === 'string') return text;
    }
    return null;
  }

  private hear(pcm: Int16Array): void {
    const heard = this.ears.push(pcm);
    if (heard.started && this.active && !this.active.stop) {
      this.active.stop = true;
      this.send({ serverContent: { interrupted: true } });
    }
    for (const text of heard.utterances) {
      if (!text) continue;
      this.connection.callerTexts.push(text);
      this.send({ serverContent: { inputTranscription: { text } } });
      this.turn({ kind: 'caller', text });
    }
  }

  private turn(input: FakeRealtimeInput): void {
    const scripted = this.fake.script(input);
    if (!scripted) return;
    this.queue = this.queue.then(() => this.run(scripted)).catch(() => undefined);
  }

  private async run(scripted: FakeRealtimeReply): Promise<void> {
    const { connection } = this;
    if (this.fake.isStopped || this.ws.readyState !== WebSocket.OPEN) return;
    const failure = this.fake.nextFailure();
    const turn: FakeLiveTurn = {
      id: connection.turns.length + 1,
      say: scripted.say ?? '',
      toolCalls: [],
      usage: scripted.usage ?? defaultUsage(scripted, connection.turns.length),
      status: 'in_progress',
      chunksSent: 0,
    };
    connection.turns.push(turn);
    const active = (this.active = { turn, stop: false });
    try {
      if (failure === 'stall') {
        turn.status = 'stalled';
        this.hung = true;
        return;
      }
      if (failure === 'error') {
        turn.status = 'failed';
        this.ws.close(1011, 'Internal error encountered.');
        return;
      }
      if (turn.say && !(await this.speak(turn, active, failure === 'drop'))) return;
      if (active.stop) {
        turn.status = 'interrupted';
        return;
      }
      if (scripted.toolCalls?.length) {
        turn.toolCalls = scripted.toolCalls.map((c, i) => ({
          id: `function-call-${turn.id}-${i}`,
          name: c.name,
          args: c.arguments,
        }));
        turn.status = 'waiting_for_tools';
        this.waiting = active;
        // usageMetadata may ride on any server message: what the turn cost so far goes with its tool call, which
        // may be its last message (end_call).
        this.send({ toolCall: { functionCalls: turn.toolCalls }, usageMetadata: usageMetadataOf(turn) });
        return;
      }
      turn.status = 'completed';
      this.send({ serverContent: { generationComplete: true } });
      this.send({
        serverContent: { turnComplete: true },
        usageMetadata: usageMetadataOf(turn),
      });
    } finally {
      if (this.active === active) this.active = null;
    }
  }

  /** The turn's words as audio and transcript; false when the socket was dropped. */
  private async speak(turn: FakeLiveTurn, active: { stop: boolean }, drop: boolean): Promise<boolean> {
    const pcm = await fakeSpeech(turn.say, OUTPUT_RATE);
    const chunks = audioChunks(pcm, OUTPUT_RATE, 100);
    const pieces = transcriptPieces(turn.say, chunks.length);
    for (const [i, chunk] of chunks.entries()) {
      await chunkGap(this.gapMs);
      if (active.stop || this.ws.readyState !== WebSocket.OPEN) return true;
      this.send({
        serverContent: {
          modelTurn: {
            parts: [
              {
                inlineData: {
                  mimeType: `audio/pcm;rate=${OUTPUT_RATE}`,
                  data: Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('base64'),
                },
              },
            ],
          },
        },
      });
      turn.chunksSent++;
      if (pieces[i]) this.send({ serverContent: { outputTranscription: { text: pieces[i] } } });
      if (drop && i >= chunks.length / 2) {
        this.ws.terminate();
        return false;
      }
    }
    return true;
  }
}

/** A turn's usage as the Live API reports it (BidiGenerateContentServerMessage.usageMetadata). */
function usageMetadataOf(turn: FakeLiveTurn): Record<string, number> {
  return {
    promptTokenCount: turn.usage.inputTokens,
    responseTokenCount: turn.usage.outputTokens,
    totalTokenCount: turn.usage.inputTokens + turn.usage.outputTokens,
  };
}
