// A local OpenAI-compatible chat-completions server for specs, e2e and benchmarks. It follows OpenAI's Chat
// Completions API reference (https://platform.openai.com/docs/api-reference/chat, as of 2025-06: streamed
// `chat.completion.chunk` events, `data: [DONE]`, `stream_options.include_usage` adding a last chunk with empty
// `choices` and the `usage`, tool calls streamed as `delta.tool_calls[]` fragments by index, errors as
// `{error: {message, type, param, code}}`). Whatever the path (`/v1/chat/completions`, Azure OpenAI's
// `/openai/deployments/{name}/chat/completions?api-version=...`, a host's `/openai/v1/...`, `/models`), it records
// the request (method, path, query, headers with the key, the body's model, parameters, messages and tools) and
// answers what the spec scripted: text, tool calls split across chunks, a failure status, or a stall before the
// first byte or mid-stream.
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { readBody, startFakeServer, type StartedFakeServer } from '@vap/testing';

export interface RecordedRequest {
  method: string;
  /** Path and query as sent. */
  url: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** The body parsed as JSON ({} for none). */
  body: Record<string, unknown>;
  /** The body exactly as received (signatures are over it). */
  raw: string;
  /** When the request's body was complete (performance.now()). */
  at: number;
  /** Settles when the answer's connection closes (its end, or the client going away), with performance.now(). */
  closed: Promise<number>;
}

/** A tool call the fake streams: its arguments split over `pieces` chunks (the first carries the id and name). */
export interface FakeToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  /** How many chunks the arguments' JSON is split across (default 3). */
  pieces?: number;
}

export type FakeAnswer =
  /** Streamed events: each string is one `data:` payload, sent `gapMs` apart, then `data: [DONE]` unless `done` is false. */
  | { kind: 'sse'; events: string[]; gapMs?: number; done?: boolean }
  /** A plain JSON answer with a status. */
  | { kind: 'json'; status: number; json: unknown }
  /** Headers sent, then nothing at all. */
  | { kind: 'silent-body' }
  /** No answer at all, not even headers. */
  | { kind: 'silent' }
  /**
   * A reply as OpenAI streams it (a chat.completion JSON when the request did not ask to stream): the text in
   * the given pieces, then the tool calls, then finish_reason; `usage` in a last chunk of its own when the request
   * set stream_options.include_usage (`usageUnasked`: always, as hosts that refuse the option do), `[DONE]`.
   * `stallAfter`: only that many events are sent, then the stream stays open and silent.
   */
  | {
      kind: 'reply';
      text?: string[];
      toolCalls?: FakeToolCall[];
      usage?: { inputTokens: number; outputTokens: number };
      usageUnasked?: boolean;
      gapMs?: number;
      stallAfter?: number;
    }
  /** An error status with OpenAI's error body. */
  | { kind: 'error'; status: number; message: string; type?: string };

type ToolCallPiece = { index: number; id?: string; name?: string; arguments?: string };

let created = 0;

/** One OpenAI `chat.completion.chunk` event's JSON. */
export function chunk(
  delta: { role?: string; content?: string; tool_calls?: ToolCallPiece[] },
  finishReason: string | null = null,
): string {
  return JSON.stringify({
    id: 'chatcmpl-fake',
    object: 'chat.completion.chunk',
    created: ++created,
    model: 'fake-model',
    system_fingerprint: 'fp_fake',
    choices: [
      {
        index: 0,
        delta: {
          ...(delta.role ? { role: delta.role } : {}),
          ...(delta.content !== undefined ? { content: delta.content } : {}),
          ...(delta.tool_calls
            ? {
                tool_calls: delta.tool_calls.map((t) => ({
                  index: t.index,
                  ...(t.id ? { id: t.id, type: 'function' } : {}),
                  function: {
                    ...(t.name ? { name: t.name } : {}),
                    arguments: t.arguments ?? '',
                  },
                })),
              }
            : {}),
        },
        logprobs: null,
        finish_reason: finishReason,
      },
    ],
  });
}

/** The last chunk of a stream that asked for usage: no choices, the reply's token counts. */
export function usageChunk(inputTokens: number, outputTokens: number): string {
  return JSON.stringify({
    id: 'chatcmpl-fake',
    object: 'chat.completion.chunk',
    created: ++created,
    model: 'fake-model',
    choices: [],
    usage: {
      prompt_tokens: inputTokens,
      completion_tokens: outputTokens,
      total_tokens: inputTokens + outputTokens,
    },
  });
}

/** The chunks of tool calls: per call, its id and name first, then its arguments' JSON in `pieces` slices. */
export function toolCallEvents(calls: FakeToolCall[]): string[] {
  const events: string[] = [];
  calls.forEach((call, index) => {
    const args = JSON.stringify(call.arguments);
    const pieces = Math.max(1, call.pieces ?? 3);
    const size = Math.ceil(args.length / pieces);
    events.push(chunk({ tool_calls: [{ index, id: call.id, name: call.name, arguments: '' }] }));
    for (let at = 0; at < args.length; at += size)
      events.push(chunk({ tool_calls: [{ index, arguments: args.slice(at, at + size) }] }));
  });
  return events;
}

/** The events of a streamed text answer, split into the given pieces. */
export function textEvents(...pieces: string[]): string[] {
  return [
    chunk({ role: 'assistant', content: '' }),
    ...pieces.map((content) => chunk({ content })),
    chunk({}, 'stop'),
  ];
}

export class FakeChatServer {
  readonly requests: RecordedRequest[] = [];
  private readonly open = new Set<ServerResponse>();
  private readonly sleeping = new Set<() => void>();
  private answers: FakeAnswer[] = [];

  private server!: StartedFakeServer;
  private url = '';

  private constructor() {}

  static async start(): Promise<FakeChatServer> {
    const fake = new FakeChatServer();
    fake.server = await startFakeServer({
      request: async (req, res) => {
        const raw = (await readBody(req)).toString('utf8');
        fake.answer(req.method ?? 'GET', req.url ?? '', req.headers, raw, res);
      },
    });
    fake.url = `${fake.server.url}/v1`;
    return fake;
  }

  /** LLM_BASE_URL for the fake: `http://127.0.0.1:<port>/v1`. */
  get baseUrl(): string {
    return this.url;
  }

  /** The fake's origin, `http://127.0.0.1:<port>` (an Azure OpenAI resource endpoint, a host base with its own path). */
  get rootUrl(): string {
    return this.url.replace(/\/v1$/, '');
  }

  /** The answers to the next requests, in order (replacing any not yet used). */
  script(...answers: FakeAnswer[]): void {
    this.answers = answers;
  }

  /** Answers for later requests, after those already scripted. */
  enqueue(...answers: FakeAnswer[]): void {
    this.answers.push(...answers);
  }

  /** Forgets the recorded requests. */
  clear(): void {
    this.requests.length = 0;
  }

  get last(): RecordedRequest {
    return this.requests[this.requests.length - 1];
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
      // Recorded raw: a spec asserts on it.
    }
    const closed = new Promise<number>((resolve) => res.on('close', () => resolve(performance.now())));
    this.requests.push({
      closed,
      method,
      url,
      path: parsed.pathname,
      query: Object.fromEntries(parsed.searchParams),
      headers,
      body,
      raw,
      at: performance.now(),
    });
    const answer = this.answers.shift() ?? {
      kind: 'json',
      status: 500,
      json: { error: { message: 'unscripted' } },
    };
    this.open.add(res);
    res.on('close', () => this.open.delete(res));
    switch (answer.kind) {
      case 'json':
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.json));
        return;
      case 'silent':
        return;
      case 'silent-body':
        res.writeHead(200, { 'content-type': 'text/event-stream' }).flushHeaders();
        return;
      case 'sse':
        void this.stream(res, answer);
        return;
      case 'error':
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            error: {
              message: answer.message,
              type: answer.type ?? 'invalid_request_error',
              param: null,
              code: null,
            },
          }),
        );
        return;
      case 'reply':
        if (body.stream !== true) {
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(completion(answer)));
          return;
        }
        void this.stream(res, {
          kind: 'sse',
          events: replyEvents(answer, streamOptionsAskUsage(body)).slice(0, answer.stallAfter),
          gapMs: answer.gapMs,
          done: answer.stallAfter === undefined,
          stall: answer.stallAfter !== undefined,
        });
    }
  }

  private async stream(
    res: ServerResponse,
    answer: Extract<FakeAnswer, { kind: 'sse' }> & { stall?: boolean },
  ): Promise<void> {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.flushHeaders();
    const lines = [...answer.events, ...(answer.done === false ? [] : ['[DONE]'])];
    for (const data of lines) {
      if (res.destroyed) return;
      res.write(`data: ${data}\n\n`);
      if (answer.gapMs) await this.sleep(answer.gapMs);
    }
    // A stall keeps the stream open and silent until the client gives up (or close()).
    if (!res.destroyed && !answer.stall) res.end();
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

function streamOptionsAskUsage(body: Record<string, unknown>): boolean {
  const options = body.stream_options as { include_usage?: unknown } | undefined;
  return options?.include_usage === true;
}

/** The streamed events of a scripted reply, without `[DONE]`. */
function replyEvents(answer: Extract<FakeAnswer, { kind: 'reply' }>, usageAsked: boolean): string[] {
  const calls = answer.toolCalls ?? [];
  const events = [
    chunk({ role: 'assistant', content: '' }),
    ...(answer.text ?? []).map((content) => chunk({ content })),
    ...toolCallEvents(calls),
    chunk({}, calls.length ? 'tool_calls' : 'stop'),
  ];
  if (answer.usage && (usageAsked || answer.usageUnasked))
    events.push(usageChunk(answer.usage.inputTokens, answer.usage.outputTokens));
  return events;
}

/** A non-streamed chat.completion of a scripted reply. */
function completion(answer: Extract<FakeAnswer, { kind: 'reply' }>): Record<string, unknown> {
  const calls = answer.toolCalls ?? [];
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: ++created,
    model: 'fake-model',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: (answer.text ?? []).join('') || null,
          ...(calls.length
            ? {
                tool_calls: calls.map((c) => ({
                  id: c.id,
                  type: 'function',
                  function: { name: c.name, arguments: JSON.stringify(c.arguments) },
                })),
              }
            : {}),
        },
        finish_reason: calls.length ? 'tool_calls' : 'stop',
      },
    ],
    ...(answer.usage
      ? {
          usage: {
            prompt_tokens: answer.usage.inputTokens,
            completion_tokens: answer.usage.outputTokens,
            total_tokens: answer.usage.inputTokens + answer.usage.outputTokens,
          },
        }
      : {}),
  };
}
