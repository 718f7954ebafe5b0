// A fake OpenAI Realtime API, speaking the protocol of its API reference (https://platform.openai.com/docs/api-
// reference/realtime, the beta interface: `OpenAI-Beta: realtime=v1`, as of 2025-06) on a local port:
// - WebSocket GET /v1/realtime?model=<model> with `Authorization: Bearer <key>` (a wrong key: 401 at the upgrade,
//   as OpenAI answers; no model: 400). session.created first; session.update answered by session.updated.
// - input_audio_buffer.append {audio: base64 pcm16 24 kHz}. Its server VAD hears the caller (FakeCallerEars):
//   input_audio_buffer.speech_started (a reply under way is cancelled, as interrupt_response does), then, at the
//   end of the utterance, speech_stopped, committed, conversation.item.created and
//   conversation.item.input_audio_transcription.completed, and a reply (create_response).
// - A reply: response.created, response.output_item.added, response.content_part.added, response.audio.delta
//   (100 ms chunks) beside response.audio_transcript.delta, .audio.done, .audio_transcript.done, output_item.done;
//   each tool call as an output item with response.function_call_arguments.delta / .done; response.done with the
//   output and usage.
// - conversation.item.create (messages, function_call_output) -> conversation.item.created; response.create ->
//   a reply to the tool results given since the last reply (or to nothing new); response.cancel cancels the reply
//   under way (response.done status cancelled) or is an error `response_cancel_not_active`;
//   conversation.item.truncate -> conversation.item.truncated, or an error past the item's audio.
// - GET /v1/models (the platform's key check): the models with the right key, 401 with another.
// It records what it was asked (key, model, session config, tools, audio bytes in, items, cancels, truncates) and
// can fail its next replies (an error event and a close, silence, a dropped socket) or refuse the upgrade.
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
  type FakeRealtimeReply,
  type FakeRealtimeScript,
} from './fake-realtime-conversation';

const RATE = 24_000;

/** One reply as the fake gave it. */
export interface FakeRealtimeResponse {
  id: string;
  say: string;
  toolCalls: { callId: string; name: string; arguments: Record<string, unknown> }[];
  usage: { inputTokens: number; outputTokens: number };
  status: 'in_progress' | 'completed' | 'cancelled' | 'failed' | 'stalled';
  /** The assistant audio item and its length. */
  itemId: string | null;
  audioMs: number;
  /** Audio chunks sent before it ended. */
  chunksSent: number;
}

/** One WebSocket connection, as the fake saw it. */
export interface FakeRealtimeConnection {
  apiKey: string | undefined;
  /** The OpenAI-Beta header (realtime=v1 for the beta interface). */
  beta: string | undefined;
  model: string | null;
  /** Every session.update's session, in order. */
  sessionUpdates: Record<string, unknown>[];
  /** The session as the updates left it. */
  session: Record<string, unknown>;
  /** Client events in order (audio appends counted, not kept). */
  events: Record<string, unknown>[];
  audioBytesIn: number;
  /** The caller's utterances, as the fake heard them. */
  callerTexts: string[];
  /** Items the client created (messages, function_call_output). */
  items: Record<string, unknown>[];
  responses: FakeRealtimeResponse[];
  cancels: number;
  truncates: { itemId: string; contentIndex: number; audioEndMs: number }[];
  closed: { code: number; reason: string } | null;
}

export interface FakeOpenAiRealtimeOptions {
  apiKey?: string;
  /** Wall ms between two audio chunks of a reply (default 5). */
  chunkGapMs?: number;
}

export class FakeOpenAiRealtimeServer {
  readonly connections: FakeRealtimeConnection[] = [];
  /** HTTP requests (the key checks), with the key each carried. */
  readonly keyChecks: { path: string; apiKey: string | undefined }[] = [];
  /** Decides each reply; set it to script a conversation. */
  script: FakeRealtimeScript = echoRealtimeScript;
  /** Upgrades are answered with this HTTP status instead (a refused key, an outage). */
  refuseWith: number | null = null;
  /** New connections are accepted and then never spoken to (a provider that hangs while opening). */
  silentOpen = false;
  readonly apiKey: string;
  private readonly failures = new FakeRealtimeFailures();
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 16 << 20 });
  private readonly sockets = new Set<Socket>();
  private server!: Server;
  private stopped = false;

  private constructor(private readonly options: FakeOpenAiRealtimeOptions) {
    this.apiKey = options.apiKey ?? 'sk-fake-realtime-key';
  }

  static async start(options: FakeOpenAiRealtimeOptions = {}): Promise<FakeOpenAiRealtimeServer> {
    const fake = new FakeOpenAiRealtimeServer(options);
    fake.server = createServer((req, res) => fake.request(req, res));
    fake.server.on('connection', (s) => {
      fake.sockets.add(s);
      s.on('close', () => fake.sockets.delete(s));
    });
    fake.server.on('upgrade', (req, socket, head) => fake.upgrade(req, socket, head));
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  /** What MODEL_OPENAI_BASE_URL takes: http://127.0.0.1:<port>/v1. */
  get baseUrl(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  get last(): FakeRealtimeConnection | undefined {
    return this.connections[this.connections.length - 1];
  }

  /** After `after` good replies, the next `times` fail the chosen way. */
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

  /** GET /v1/models: the key check the platform makes before it stores a partner's key. */
  private request(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://fake');
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    this.keyChecks.push({
      path: url.pathname,
      apiKey: /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1],
    });
    if (req.method !== 'GET' || url.pathname !== '/v1/models')
      return answer(404, { error: { message: 'Not found', type: 'invalid_request_error' } });
    if (this.keyChecks.at(-1)!.apiKey !== this.apiKey)
      return answer(401, {
        error: {
          message: 'Incorrect API key provided.',
          type: 'invalid_request_error',
          code: 'invalid_api_key',
        },
      });
    answer(200, {
      object: 'list',
      data: ['gpt-realtime', 'gpt-4o-realtime-preview', 'gpt-4o-mini-realtime-preview'].map((id) => ({
        id,
        object: 'model',
        created: 1_725_000_000,
        owned_by: 'system',
      })),
    });
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://fake');
    const refuse = (status: number, message: string, code: string) => {
      const body = JSON.stringify({ error: { message, type: 'invalid_request_error', code } });
      socket.end(
        `HTTP/1.1 ${status} Refused\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
    };
    const apiKey = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
    if (url.pathname !== '/v1/realtime') return refuse(404, `Invalid URL (GET ${url.pathname})`, 'not_found');
    if (this.refuseWith !== null) return refuse(this.refuseWith, 'The server is unavailable', 'server_error');
    if (apiKey !== this.apiKey) return refuse(401, 'Incorrect API key provided.', 'invalid_api_key');
    const model = url.searchParams.get('model');
    if (!model) return refuse(400, 'Missing required parameter: model', 'missing_model');
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      const connection: FakeRealtimeConnection = {
        apiKey,
        beta: req.headers['openai-beta'] as string | undefined,
        model,
        sessionUpdates: [],
        session: {},
        events: [],
        audioBytesIn: 0,
        callerTexts: [],
        items: [],
        responses: [],
        cancels: 0,
        truncates: [],
        closed: null,
      };
      this.connections.push(connection);
      new RealtimeConversation(this, ws, connection, this.options.chunkGapMs ?? 5).start();
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

let ids = 0;
const newId = (prefix: string) => `${prefix}_fake${(++ids).toString(36).padStart(6, '0')}`;

/** One connection's conversation. */
class RealtimeConversation {
  private readonly ears = new FakeCallerEars(RATE);
  /** The reply under way, and how to stop it. */
  private active: { response: FakeRealtimeResponse; stop: boolean } | null = null;
  /** Tool results given since the last reply. */
  private outputs: { callId: string; name: string; output: string }[] = [];
  /** Calls of the replies, by call id (their names, for the results). */
  private readonly calls = new Map<string, string>();
  /** Replies go out one after the other. */
  private queue: Promise<void> = Promise.resolve();
  private hung = false;

  constructor(
    private readonly fake: FakeOpenAiRealtimeServer,
    private readonly ws: WebSocket,
    private readonly connection: FakeRealtimeConnection,
    private readonly gapMs: number,
  ) {}

  start(): void {
    const { ws, connection } = this;
    ws.on('close', (code, reason) => {
      connection.closed ??= { code, reason: reason.toString() };
      if (this.active) this.active.stop = true;
    });
    ws.on('message', (data) => this.message(data.toString()));
    if (this.fake.silentOpen) {
      this.hung = true;
      return;
    }
    this.send({
      type: 'session.created',
      session: { id: newId('sess'), object: 'realtime.session', model: connection.model },
    });
  }

  private send(event: Record<string, unknown>): void {
    if (this.hung || this.ws.readyState !== WebSocket.OPEN) return;
    this.ws.send(JSON.stringify({ event_id: newId('event'), ...event }));
  }

  private error(message: string, code: string, eventId: unknown, type = 'invalid_request_error'): void {
    this.send({ type: 'error', error: { type, code, message, param: null, event_id: eventId ?? null } });
  }

  private message(text: string): void {
    if (this.hung) return;
    let event: Record<string, unknown>;
    try {
      event = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return this.error('Invalid JSON', 'invalid_json', null);
    }
    const { connection } = this;
    if (event.type === 'input_audio_buffer.append') {
      const audio = typeof event.audio === 'string' ? Buffer.from(event.audio, 'base64') : Buffer.alloc(0);
      connection.audioBytesIn += audio.length;
      const copy = new Uint8Array(audio).buffer;
      return this.hear(new Int16Array(copy, 0, audio.length >> 1));
    }
    connection.events.push(event);
    switch (event.type) {
      case 'session.update': {
        const session = (event.session ?? {}) as Record<string, unknown>;
        connection.sessionUpdates.push(session);
        connection.session = { ...connection.session, ...session };
        this.send({ type: 'session.updated', session: connection.session });
        return;
      }
      case 'conversation.item.create': {
        const item: Record<string, unknown> = {
          id: newId('item'),
          ...((event.item ?? {}) as Record<string, unknown>),
        };
        connection.items.push(item);
        if (item.type === 'function_call_output') {
          const callId = String(item.call_id);
          this.outputs.push({
            callId,
            name: this.calls.get(callId) ?? '',
            output: String(item.output ?? ''),
          });
        }
        this.send({ type: 'conversation.item.created', previous_item_id: null, item });
        return;
      }
      case 'response.create': {
        const outputs = this.outputs.splice(0);
        this.reply(
          outputs.length
            ? { kind: 'tool_results', results: outputs }
            : { kind: 'respond', lastUserText: this.lastUserText() },
        );
        return;
      }
      case 'response.cancel':
        connection.cancels++;
        if (!this.active)
          return this.error(
            'Cancellation failed: no active response found',
            'response_cancel_not_active',
            event.event_id,
          );
        this.active.stop = true;
        return;
      case 'conversation.item.truncate': {
        const itemId = String(event.item_id);
        const audioEndMs = Number(event.audio_end_ms);
        const response = connection.responses.find((r) => r.itemId === itemId);
        if (!response)
          return this.error(`Item ${itemId} not found`, 'item_truncate_invalid_item_id', event.event_id);
        if (!(audioEndMs >= 0) || audioEndMs > response.audioMs)
          return this.error('audio_end_ms is longer than the audio', 'invalid_value', event.event_id);
        connection.truncates.push({ itemId, contentIndex: Number(event.content_index), audioEndMs });
        this.send({
          type: 'conversation.item.truncated',
          item_id: itemId,
          content_index: 0,
          audio_end_ms: audioEndMs,
        });
        return;
      }
      default:
        return this.error(`Invalid value: '${String(event.type)}'`, 'invalid_value', event.event_id);
    }
  }

  /** The latest user message the client created (its text). */
  private lastUserText(): string | null {
    for (let i = this.connection.items.length - 1; i >= 0; i--) {
      const item = this.connection.items[i];
      if (item.type !== 'message' || item.role !== 'user') continue;
      const part = (item.content as { text?: unknown }[] | undefined)?.[0];
      if (typeof part?.text === 'string') return part.text;
    }
    return null;
  }

  /** Caller audio through the server VAD and transcription. */
  private hear(pcm: Int16Array): void {
    const heard = this.ears.push(pcm);
    if (heard.started) {
      this.send({
        type: 'input_audio_buffer.speech_started',
        audio_start_ms: Math.round(this.ears.heardMs),
        item_id: newId('item'),
      });
      // interrupt_response: the reply under way stops.
      if (this.active) this.active.stop = true;
    }
    for (const text of heard.utterances) {
      const itemId = newId('item');
      this.send({
        type: 'input_audio_buffer.speech_stopped',
        audio_end_ms: Math.round(this.ears.heardMs),
        item_id: itemId,
      });
      this.send({ type: 'input_audio_buffer.committed', previous_item_id: null, item_id: itemId });
      this.send({
        type: 'conversation.item.created',
        previous_item_id: null,
        item: {
          id: itemId,
          object: 'realtime.item',
          type: 'message',
          role: 'user',
          content: [{ type: 'input_audio', transcript: null }],
        },
      });
      if (!text) continue;
      this.connection.callerTexts.push(text);
      this.send({
        type: 'conversation.item.input_audio_transcription.completed',
        item_id: itemId,
        content_index: 0,
        transcript: text,
      });
      this.reply({ kind: 'caller', text });
    }
  }

  private reply(input: Parameters<FakeRealtimeScript>[0]): void {
    const scripted = this.fake.script(input);
    if (!scripted) return;
    this.queue = this.queue.then(() => this.run(scripted)).catch(() => undefined);
  }

  private async run(scripted: FakeRealtimeReply): Promise<void> {
    const { connection } = this;
    if (this.fake.isStopped || this.ws.readyState !== WebSocket.OPEN) return;
    const failure = this.fake.nextFailure();
    const response: FakeRealtimeResponse = {
      id: newId('resp'),
      say: scripted.say ?? '',
      toolCalls: [],
      usage: scripted.usage ?? defaultUsage(scripted, connection.responses.length),
      status: 'in_progress',
      itemId: null,
      audioMs: 0,
      chunksSent: 0,
    };
    connection.responses.push(response);
    const active = (this.active = { response, stop: false });
    const output: Record<string, unknown>[] = [];
    this.send({
      type: 'response.created',
      response: { id: response.id, object: 'realtime.response', status: 'in_progress', output: [] },
    });
    try {
      if (failure === 'stall') {
        response.status = 'stalled';
        this.hung = true;
        return;
      }
      if (failure === 'error') {
        response.status = 'failed';
        this.error(
          'The server had an error while processing your request.',
          'server_error',
          null,
          'server_error',
        );
        this.ws.close(1011, 'server error');
        return;
      }
      if (response.say) await this.speak(response, active, output, failure === 'drop');
      if (failure === 'drop') return;
      for (const call of active.stop ? [] : (scripted.toolCalls ?? [])) {
        const callId = newId('call');
        const itemId = newId('item');
        const args = JSON.stringify(call.arguments);
        this.calls.set(callId, call.name);
        response.toolCalls.push({ callId, name: call.name, arguments: call.arguments });
        const item = {
          id: itemId,
          object: 'realtime.item',
          type: 'function_call',
          status: 'in_progress',
          call_id: callId,
          name: call.name,
          arguments: '',
        };
        this.send({
          type: 'response.output_item.added',
          response_id: response.id,
          output_index: output.length,
          item,
        });
        // The arguments stream in two pieces, as the service sends them.
        const half = Math.ceil(args.length / 2);
        for (const delta of [args.slice(0, half), args.slice(half)])
          this.send({
            type: 'response.function_call_arguments.delta',
            response_id: response.id,
            item_id: itemId,
            output_index: output.length,
            call_id: callId,
            delta,
          });
        this.send({
          type: 'response.function_call_arguments.done',
          response_id: response.id,
          item_id: itemId,
          output_index: output.length,
          call_id: callId,
          name: call.name,
          arguments: args,
        });
        const done = { ...item, status: 'completed', arguments: args };
        this.send({
          type: 'response.output_item.done',
          response_id: response.id,
          output_index: output.length,
          item: done,
        });
        output.push(done);
      }
      response.status = active.stop ? 'cancelled' : 'completed';
      this.send({
        type: 'response.done',
        response: {
          id: response.id,
          object: 'realtime.response',
          status: response.status,
          status_details: active.stop ? { type: 'cancelled', reason: 'turn_detected' } : null,
          output,
          usage: {
            total_tokens: response.usage.inputTokens + response.usage.outputTokens,
            input_tokens: response.usage.inputTokens,
            output_tokens: response.usage.outputTokens,
          },
        },
      });
    } finally {
      if (this.active === active) this.active = null;
    }
  }

  /** The reply's words as audio and transcript, chunk by chunk, until it is done or stopped. */
  private async speak(
    response: FakeRealtimeResponse,
    active: { stop: boolean },
    output: Record<string, unknown>[],
    drop: boolean,
  ): Promise<void> {
    const itemId = (response.itemId = newId('item'));
    const pcm = await fakeSpeech(response.say, RATE);
    const chunks = audioChunks(pcm, RATE, 100);
    response.audioMs = (pcm.length * 1000) / RATE;
    const pieces = transcriptPieces(response.say, chunks.length);
    const index = output.length;
    const item = {
      id: itemId,
      object: 'realtime.item',
      type: 'message',
      role: 'assistant',
      status: 'in_progress',
      content: [],
    };
    this.send({ type: 'response.output_item.added', response_id: response.id, output_index: index, item });
    this.send({
      type: 'response.content_part.added',
      response_id: response.id,
      item_id: itemId,
      output_index: index,
      content_index: 0,
      part: { type: 'audio', transcript: '' },
    });
    let said = '';
    for (const [i, chunk] of chunks.entries()) {
      await chunkGap(this.gapMs);
      if (active.stop || this.ws.readyState !== WebSocket.OPEN) break;
      this.send({
        type: 'response.audio.delta',
        response_id: response.id,
        item_id: itemId,
        output_index: index,
        content_index: 0,
        delta: Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('base64'),
      });
      response.chunksSent++;
      if (pieces[i]) {
        said += pieces[i];
        this.send({
          type: 'response.audio_transcript.delta',
          response_id: response.id,
          item_id: itemId,
          output_index: index,
          content_index: 0,
          delta: pieces[i],
        });
      }
      // A dropped connection goes halfway through the reply.
      if (drop && i >= chunks.length / 2) {
        this.ws.terminate();
        return;
      }
    }
    const transcript = active.stop ? said : response.say;
    if (!active.stop) {
      this.send({
        type: 'response.audio.done',
        response_id: response.id,
        item_id: itemId,
        output_index: index,
        content_index: 0,
      });
      this.send({
        type: 'response.audio_transcript.done',
        response_id: response.id,
        item_id: itemId,
        output_index: index,
        content_index: 0,
        transcript,
      });
    }
    const done = {
      ...item,
      status: active.stop ? 'incomplete' : 'completed',
      content: [{ type: 'audio', transcript }],
    };
    this.send({
      type: 'response.output_item.done',
      response_id: response.id,
      output_index: index,
      item: done,
    });
    output.push(done);
  }
}
