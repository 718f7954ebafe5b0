// A local Anthropic server for specs, e2e and benchmarks. It speaks the Anthropic Messages API, anthropic-version
// 2023-06-01 (https://docs.anthropic.com/en/api/messages and /en/docs/build-with-claude/streaming): POST
// /v1/messages, streamed as `event:` / `data:` pairs (message_start with the input tokens, content_block_start /
// content_block_delta (text_delta, input_json_delta) / content_block_stop, message_delta with the output tokens,
// message_stop, ping, error), or one `message` JSON when not streamed; errors as
// `{type: "error", error: {type, message}}`; GET /v1/models for a key check. Like FakeChatServer it records each
// request (the key, the version header, the model, parameters, system, messages and tools) and answers what the
// spec scripted: text, tool_use blocks whose input streams in pieces, a failure, or a stall or a hang.
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { readBody, startFakeServer, type StartedFakeServer } from '@vap/testing';

export interface RecordedAnthropicRequest {
  method: string;
  /** Path and query as sent. */
  url: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** x-api-key as sent ('' when none). */
  apiKey: string;
  /** anthropic-version as sent ('' when none). */
  version: string;
  /** The body parsed as JSON ({} for none). */
  body: Record<string, unknown>;
  raw: string;
  model: unknown;
  stream: boolean;
  /** The sampling parameters as sent (undefined when absent). */
  parameters: { max_tokens?: unknown; temperature?: unknown; top_p?: unknown };
  system: unknown;
  messages: unknown[];
  tools: unknown[];
  /** When the request's body was complete (performance.now()). */
  at: number;
  /** Settles when the answer's connection closes (its end, or the client going away), with performance.now(). */
  closed: Promise<number>;
}

/** A tool_use block the fake streams: its input's JSON split over `pieces` input_json_delta events (default 3). */
export interface FakeToolUse {
  id?: string;
  name: string;
  input: Record<string, unknown>;
  pieces?: number;
}

/** One streamed event: its name and its data (serialized as JSON, or sent as it is when a string). */
export interface FakeAnthropicEvent {
  event: string;
  data: unknown;
}

export type FakeAnthropicAnswer =
  /**
   * A reply as Anthropic sends it: one text block in the given pieces, then the tool_use blocks, then
   * message_delta (stop_reason, output tokens) and message_stop; one `message` JSON when the request did not ask
   * to stream. `stallAfter`: only that many text pieces are sent, then the stream stays open and silent.
   */
  | {
      kind: 'reply';
      text?: string[];
      toolUses?: FakeToolUse[];
      usage?: { inputTokens: number; outputTokens: number };
      gapMs?: number;
      stallAfter?: number;
    }
  /** An error status with Anthropic's error body (e.g. 401 authentication_error, 529 overloaded_error). */
  | { kind: 'error'; status: number; type?: string; message: string }
  /** A stream that starts a reply, sends its text pieces, then an `error` event (Anthropic's mid-stream failure). */
  | { kind: 'stream-error'; text?: string[]; type: string; message: string }
  /** Streamed events exactly as given, then the stream ends (unless `stall`). */
  | { kind: 'events'; events: FakeAnthropicEvent[]; gapMs?: number; stall?: boolean }
  /** A plain JSON answer with a status. */
  | { kind: 'json'; status: number; json: unknown }
  /** Headers sent, then nothing at all. */
  | { kind: 'silent-body' }
  /** No answer at all, not even headers. */
  | { kind: 'silent' };

export interface FakeAnthropicOptions {
  /** The key the fake accepts: others get 401 authentication_error. Unset: any key. */
  apiKey?: string;
  /** The model ids GET /v1/models lists. */
  models?: string[];
}

let messageCount = 0;

/** The `error` body Anthropic answers failures with. */
export function anthropicErrorBody(type: string, message: string): Record<string, unknown> {
  return { type: 'error', error: { type, message }, request_id: `req_fake${++messageCount}` };
}

/** The status Anthropic answers an error type with, as its errors page documents it. */
function statusOf(type: string): number {
  const statuses: Record<string, number> = {
    invalid_request_error: 400,
    authentication_error: 401,
    permission_error: 403,
    not_found_error: 404,
    rate_limit_error: 429,
    api_error: 500,
    overloaded_error: 529,
  };
  return statuses[type] ?? 500;
}

/** The events of a streamed reply (the first `textLimit` text pieces only, and then nothing, when given). */
export function anthropicReplyEvents(
  answer: Extract<FakeAnthropicAnswer, { kind: 'reply' }>,
  model: string,
  textLimit?: number,
): FakeAnthropicEvent[] {
  const id = `msg_fake${++messageCount}`;
  const usage = answer.usage ?? { inputTokens: 10, outputTokens: 5 };
  const events: FakeAnthropicEvent[] = [
    {
      event: 'message_start',
      data: {
        type: 'message_start',
        message: {
          id,
          type: 'message',
          role: 'assistant',
          content: [],
          model,
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: usage.inputTokens, output_tokens: 1 },
        },
      },
    },
    { event: 'ping', data: { type: 'ping' } },
  ];
  const text = answer.text ?? [];
  let index = 0;
  if (text.length) {
    events.push({
      event: 'content_block_start',
      data: { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
    });
    for (const [i, piece] of text.entries()) {
      if (textLimit !== undefined && i >= textLimit) return events;
      events.push({
        event: 'content_block_delta',
        data: { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } },
      });
    }
    events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
    index++;
  }
  if (textLimit !== undefined) return events;
  for (const use of answer.toolUses ?? []) {
    events.push({
      event: 'content_block_start',
      data: {
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id: use.id ?? `toolu_fake${index}`, name: use.name, input: {} },
      },
    });
    const json = JSON.stringify(use.input);
    const size = Math.ceil(json.length / Math.max(1, use.pieces ?? 3));
    // Anthropic opens each tool_use's input with an empty partial_json.
    events.push({
      event: 'content_block_delta',
      data: { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: '' } },
    });
    for (let at = 0; at < json.length; at += size)
      events.push({
        event: 'content_block_delta',
        data: {
          type: 'content_block_delta',
          index,
          delta: { type: 'input_json_delta', partial_json: json.slice(at, at + size) },
        },
      });
    events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
    index++;
  }
  events.push(
    {
      event: 'message_delta',
      data: {
        type: 'message_delta',
        delta: { stop_reason: answer.toolUses?.length ? 'tool_use' : 'end_turn', stop_sequence: null },
        usage: { output_tokens: usage.outputTokens },
      },
    },
    { event: 'message_stop', data: { type: 'message_stop' } },
  );
  return events;
}

/** A non-streamed `message` of a scripted reply. */
function message(answer: Extract<FakeAnthropicAnswer, { kind: 'reply' }>, model: string): unknown {
  const text = (answer.text ?? []).join('');
  const uses = answer.toolUses ?? [];
  const usage = answer.usage ?? { inputTokens: 10, outputTokens: 5 };
  return {
    id: `msg_fake${++messageCount}`,
    type: 'message',
    role: 'assistant',
    model,
    content: [
      ...(text ? [{ type: 'text', text }] : []),
      ...uses.map((u, i) => ({
        type: 'tool_use',
        id: u.id ?? `toolu_fake${i}`,
        name: u.name,
        input: u.input,
      })),
    ],
    stop_reason: uses.length ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: usage.inputTokens, output_tokens: usage.outputTokens },
  };
}

/** What the Messages API refuses before any model runs, as it words it; null when the request is well formed. */
function invalidRequest(body: Record<string, unknown>): string | null {
  if (typeof body.model !== 'string') return 'model: Field required';
  if (typeof body.max_tokens !== 'number') return 'max_tokens: Field required';
  if (body.temperature !== undefined && body.top_p !== undefined)
    return '`temperature` and `top_p` cannot both be specified for this model. Please use only one.';
  if (!Array.isArray(body.messages)) return 'messages: Field required';
  for (const [i, m] of (body.messages as { role?: unknown; content?: unknown }[]).entries()) {
    if (m?.role !== 'user' && m?.role !== 'assistant')
      return `messages.${i}.role: Input should be 'user' or 'assistant'`;
    if (
      Array.isArray(m.content) &&
      m.content.some((b: { type?: string; text?: string }) => b?.type === 'text' && !b.text)
    )
      return `messages.${i}: text content blocks must be non-empty`;
  }
  return null;
}

export class FakeAnthropicServer {
  readonly requests: RecordedAnthropicRequest[] = [];
  /**
   * What to answer a Messages request when nothing is scripted (e.g. a rule on the caller's last words in an e2e
   * call). Unset: 500 api_error.
   */
  respond?: (request: RecordedAnthropicRequest) => FakeAnthropicAnswer;
  private readonly open = new Set<ServerResponse>();
  private readonly sleeping = new Set<() => void>();
  private answers: FakeAnthropicAnswer[] = [];
  private server!: StartedFakeServer;
  private url = '';

  private constructor(private readonly options: FakeAnthropicOptions) {}

  static async start(options: FakeAnthropicOptions = {}): Promise<FakeAnthropicServer> {
    const fake = new FakeAnthropicServer(options);
    fake.server = await startFakeServer({
      request: async (req, res) => {
        const raw = (await readBody(req)).toString('utf8');
        fake.answer(req.method ?? 'GET', req.url ?? '', req.headers, raw, res);
      },
    });
    fake.url = `${fake.server.url}/v1`;
    return fake;
  }

  /** The API base for the fake (MODEL_ANTHROPIC_BASE_URL): `http://127.0.0.1:<port>/v1`. */
  get baseUrl(): string {
    return this.url;
  }

  /** The fake's origin, `http://127.0.0.1:<port>`. */
  get rootUrl(): string {
    return this.url.replace(/\/v1$/, '');
  }

  /** The key the fake accepts ('' when it accepts any). */
  get apiKey(): string {
    return this.options.apiKey ?? '';
  }

  /** The Messages requests, in order (key checks left out). */
  get messages(): RecordedAnthropicRequest[] {
    return this.requests.filter((r) => r.method === 'POST' && r.path === '/v1/messages');
  }

  /** The key checks (GET /v1/models), in order. */
  get keyChecks(): RecordedAnthropicRequest[] {
    return this.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/v1/models'));
  }

  get last(): RecordedAnthropicRequest {
    return this.requests[this.requests.length - 1];
  }

  /** The answers to the next Messages requests, in order (replacing any not yet used). */
  script(...answers: FakeAnthropicAnswer[]): void {
    this.answers = answers;
  }

  /** Answers for later requests, after those already scripted. */
  enqueue(...answers: FakeAnthropicAnswer[]): void {
    this.answers.push(...answers);
  }

  /** Forgets the recorded requests. */
  clear(): void {
    this.requests.length = 0;
  }

  async close(): Promise<void> {
    for (const wake of this.sleeping) wake();
    for (const res of this.open) res.destroy();
    await this.server.close();
  }

  private answer(
    method: string,
    url: string,
    headers: IncomingHttpHeaders,
    raw: string,
    res: ServerResponse,
  ): void {
    const parsed = new URL(url, 'http://fake');
    let body: Record<string, unknown> = {};
    try {
      if (raw) body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      // Recorded raw; answered as Anthropic does below.
    }
    const header = (name: string) => {
      const v = headers[name];
      return Array.isArray(v) ? (v[0] ?? '') : (v ?? '');
    };
    const recorded: RecordedAnthropicRequest = {
      method,
      url,
      path: parsed.pathname,
      query: Object.fromEntries(parsed.searchParams),
      headers,
      apiKey: header('x-api-key'),
      version: header('anthropic-version'),
      body,
      raw,
      model: body.model,
      stream: body.stream === true,
      parameters: { max_tokens: body.max_tokens, temperature: body.temperature, top_p: body.top_p },
      system: body.system,
      messages: Array.isArray(body.messages) ? body.messages : [],
      tools: Array.isArray(body.tools) ? body.tools : [],
      at: performance.now(),
      closed: new Promise<number>((resolve) => res.on('close', () => resolve(performance.now()))),
    };
    this.requests.push(recorded);
    this.open.add(res);
    res.on('close', () => this.open.delete(res));

    const refuse = (type: string, message: string) =>
      this.send(res, { kind: 'error', status: statusOf(type), type, message });
    if (!recorded.version) return refuse('invalid_request_error', 'anthropic-version: header is required');
    if (!recorded.apiKey) return refuse('authentication_error', 'x-api-key header is required');
    if (this.options.apiKey && recorded.apiKey !== this.options.apiKey)
      return refuse('authentication_error', 'invalid x-api-key');

    if (method === 'GET' && parsed.pathname === '/v1/models') {
      const data = (this.options.models ?? ['claude-haiku-4-5']).map((id) => ({
        type: 'model',
        id,
        display_name: id,
        created_at: '2025-10-01T00:00:00Z',
      }));
      return this.send(res, {
        kind: 'json',
        status: 200,
        json: { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null },
      });
    }
    if (method !== 'POST' || parsed.pathname !== '/v1/messages')
      return refuse('not_found_error', `${method} ${parsed.pathname} is not an endpoint of this API`);
    const invalid = raw && !Object.keys(body).length ? 'body: not valid JSON' : invalidRequest(body);
    if (invalid) return refuse('invalid_request_error', invalid);

    const answer = this.answers.shift() ??
      this.respond?.(recorded) ?? { kind: 'error', status: 500, type: 'api_error', message: 'unscripted' };
    this.send(res, answer, String(body.model), recorded.stream);
  }

  private send(
    res: ServerResponse,
    answer: FakeAnthropicAnswer,
    model = 'claude-fake',
    streamed = false,
  ): void {
    switch (answer.kind) {
      case 'json':
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.json));
        return;
      case 'error':
        res
          .writeHead(answer.status, { 'content-type': 'application/json' })
          .end(JSON.stringify(anthropicErrorBody(answer.type ?? 'invalid_request_error', answer.message)));
        return;
      case 'silent':
        return;
      case 'silent-body':
        res.writeHead(200, { 'content-type': 'text/event-stream' }).flushHeaders();
        return;
      case 'events':
        void this.stream(res, answer.events, answer.gapMs, answer.stall);
        return;
      case 'stream-error': {
        const text = answer.text ?? [];
        const events = anthropicReplyEvents({ kind: 'reply', text }, model, text.length);
        events.push({ event: 'error', data: anthropicErrorBody(answer.type, answer.message) });
        void this.stream(res, events);
        return;
      }
      case 'reply': {
        if (!streamed) {
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify(message(answer, model)));
          return;
        }
        void this.stream(
          res,
          anthropicReplyEvents(answer, model, answer.stallAfter),
          answer.gapMs,
          answer.stallAfter !== undefined,
        );
      }
    }
  }

  private async stream(
    res: ServerResponse,
    events: FakeAnthropicEvent[],
    gapMs?: number,
    stall?: boolean,
  ): Promise<void> {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.flushHeaders();
    for (const e of events) {
      if (res.destroyed) return;
      res.write(
        `event: ${e.event}\ndata: ${typeof e.data === 'string' ? e.data : JSON.stringify(e.data)}\n\n`,
      );
      if (gapMs) await this.sleep(gapMs);
    }
    // A stall keeps the stream open and silent until the client gives up (or close()).
    if (!res.destroyed && !stall) res.end();
  }

  /** A pause between events that close() cuts short, so a closed server leaves no timers behind. */
  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.sleeping.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.sleeping.add(wake);
    });
  }
}
