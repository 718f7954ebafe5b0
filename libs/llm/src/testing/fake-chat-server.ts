// A local OpenAI-compatible chat-completions server for specs: it records each request and answers with what
// the spec scripts, streamed as server-sent `chat.completion.chunk` events exactly like OpenAI's.
import { createServer, IncomingHttpHeaders, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

export interface RecordedRequest {
  url: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export type FakeAnswer =
  /** Streamed events: each string is one `data:` payload, sent `gapMs` apart, then `data: [DONE]` unless `done` is false. */
  | { kind: 'sse'; events: string[]; gapMs?: number; done?: boolean }
  /** A plain JSON answer with a status. */
  | { kind: 'json'; status: number; json: unknown }
  /** Headers sent, then nothing at all. */
  | { kind: 'silent-body' }
  /** No answer at all, not even headers. */
  | { kind: 'silent' };

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

  private readonly server: Server;
  private url = '';

  private constructor() {
    this.server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString()));
      req.on('end', () => this.answer(req.url ?? '', req.headers, raw, res));
    });
  }

  static async start(): Promise<FakeChatServer> {
    const fake = new FakeChatServer();
    await new Promise<void>((r) => fake.server.listen(0, '127.0.0.1', r));
    fake.url = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}/v1`;
    return fake;
  }

  /** LLM_BASE_URL for the fake: `http://127.0.0.1:<port>/v1`. */
  get baseUrl(): string {
    return this.url;
  }

  /** The answers to the next requests, in order. */
  script(...answers: FakeAnswer[]): void {
    this.answers = answers;
  }

  get last(): RecordedRequest {
    return this.requests[this.requests.length - 1];
  }

  async close(): Promise<void> {
    for (const wake of this.sleeping) wake();
    for (const res of this.open) res.destroy();
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }

  private answer(url: string, headers: IncomingHttpHeaders, raw: string, res: ServerResponse): void {
    this.requests.push({ url, headers, body: JSON.parse(raw) as Record<string, unknown> });
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
    }
  }

  private async stream(res: ServerResponse, answer: Extract<FakeAnswer, { kind: 'sse' }>): Promise<void> {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const lines = [...answer.events, ...(answer.done === false ? [] : ['[DONE]'])];
    for (const data of lines) {
      if (res.destroyed) return;
      res.write(`data: ${data}\n\n`);
      if (answer.gapMs) await this.sleep(answer.gapMs);
    }
    if (!res.destroyed) res.end();
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
