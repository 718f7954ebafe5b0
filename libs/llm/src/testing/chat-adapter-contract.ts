// What every OpenAI-wire model adapter must do, as one set of specs each plugin's spec runs against the fake chat
// server: stream text as it comes, assemble streamed tool calls, report usage once, send the parameters and the key
// as its provider names them, turn failures, hangs and stalls into an LlmError within the deadline, stop at once
// on abort, keep keys out of errors, and answer extraction through the non-streamed path.
import type { IncomingHttpHeaders } from 'node:http';
import { createServer } from 'node:net';
import type { EffectiveExtractionKey } from '@vap/messages';
import { endCallTool, searchKnowledgeBaseTool } from '../agent-tools';
import type { ChatDelta, ChatMessage } from '../chat-model';
import type { KeyCheck } from '../key-check';
import type { LanguageModel } from '../language-model';
import { LlmError } from '../llm-error';
import { FakeChatServer } from './fake-chat-server';

/** Where an adapter is pointed: the fake's OpenAI-style base (`.../v1`) and its bare origin. */
export interface FakeTarget {
  baseUrl: string;
  rootUrl: string;
}

export interface AdapterParameters {
  apiKey: string;
  timeoutMs: number;
  temperature?: number;
  maxTokens?: number;
  topP?: number;
}

export interface ChatAdapterContract {
  create(target: FakeTarget, parameters: AdapterParameters): LanguageModel;
  /** The model id the adapter was created with, as the body names it. */
  model: string;
  /** The path chat completions must be posted to, and its query. */
  chatPath: string;
  chatQuery?: Record<string, string>;
  /** Checks the key arrived as the provider wants it. */
  expectKey(headers: IncomingHttpHeaders, apiKey: string): void;
  /** The reply-length parameter's name. */
  maxTokensField: 'max_tokens' | 'max_completion_tokens';
  /** The adapter asks for usage with stream_options.include_usage (else the fake sends it unasked). */
  asksUsage: boolean;
}

export interface KeyCheckContract {
  check(target: FakeTarget, apiKey: string, timeoutMs: number): Promise<KeyCheck>;
  path: string;
  query?: Record<string, string>;
  expectKey(headers: IncomingHttpHeaders, apiKey: string): void;
  /** Statuses besides 2xx a good key may get (a custom server without a models list: 404, 405). */
  alsoOk?: number[];
}

const KEY = 'sk-test-0123456789abcdef';
const MESSAGES: ChatMessage[] = [
  { role: 'system', content: 'You are Maya.' },
  { role: 'user', content: 'Can I end the call?' },
];

async function collect(deltas: AsyncIterable<ChatDelta>): Promise<ChatDelta[]> {
  const out: ChatDelta[] = [];
  for await (const d of deltas) out.push(d);
  return out;
}

async function failureOf(run: Promise<unknown>): Promise<LlmError> {
  const err = await run.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(LlmError);
  return err as LlmError;
}

/** A local port nothing listens on. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise((r) => server.close(r));
  return port;
}

export function describeChatAdapterContract(name: string, contract: ChatAdapterContract): void {
  describe(`${name}: the chat adapter against a fake speaking its protocol`, () => {
    let fake: FakeChatServer;
    const target = (): FakeTarget => ({ baseUrl: fake.baseUrl, rootUrl: fake.rootUrl });
    const model = (overrides: Partial<AdapterParameters> = {}) =>
      contract.create(target(), { apiKey: KEY, timeoutMs: 2000, ...overrides });
    const usageUnasked = !contract.asksUsage;

    beforeAll(async () => {
      fake = await FakeChatServer.start();
    });
    afterAll(async () => {
      await fake.close();
    });

    it('streams the reply, sends the parameters and the key as the provider names them, and reports usage once', async () => {
      fake.script({
        kind: 'reply',
        text: ['Yes,', ' of course.'],
        usage: { inputTokens: 42, outputTokens: 7 },
        usageUnasked,
      });
      const deltas = await collect(
        model().stream({
          messages: MESSAGES,
          tools: [endCallTool()],
          temperature: 0.4,
          maxTokens: 120,
          topP: 0.9,
          call: { callId: 'call_1', variables: { name: 'Asha' } },
        }),
      );
      expect(deltas).toEqual([
        { type: 'text', text: 'Yes,' },
        { type: 'text', text: ' of course.' },
        { type: 'usage', usage: { inputTokens: 42, outputTokens: 7 } },
      ]);
      const req = fake.last;
      expect(req.method).toBe('POST');
      expect(req.path).toBe(contract.chatPath);
      expect(req.query).toEqual(contract.chatQuery ?? {});
      contract.expectKey(req.headers, KEY);
      expect(req.body).toMatchObject({
        model: contract.model,
        stream: true,
        temperature: 0.4,
        [contract.maxTokensField]: 120,
        top_p: 0.9,
        messages: MESSAGES,
        tools: [{ type: 'function', function: endCallTool() }],
        tool_choice: 'auto',
      });
      const other = contract.maxTokensField === 'max_tokens' ? 'max_completion_tokens' : 'max_tokens';
      expect(req.body[other]).toBeUndefined();
      expect(req.body.stream_options).toEqual(contract.asksUsage ? { include_usage: true } : undefined);
    });

    it("sends the agent's parameters when the turn names none", async () => {
      fake.script({ kind: 'reply', text: ['Ok.'] });
      await collect(
        model({ temperature: 0.2, maxTokens: 50, topP: 0.5 }).stream({ messages: MESSAGES, tools: [] }),
      );
      expect(fake.last.body).toMatchObject({ temperature: 0.2, [contract.maxTokensField]: 50, top_p: 0.5 });
      expect(fake.last.body.tools).toBeUndefined();
    });

    it('assembles tool calls streamed in pieces, two in one turn, then the usage', async () => {
      fake.script({
        kind: 'reply',
        text: ['Let me check.'],
        toolCalls: [
          { id: 'call_a', name: 'search_knowledge_base', arguments: { query: 'opening hours é' }, pieces: 4 },
          { id: 'call_b', name: 'end_call', arguments: { reason: 'done' }, pieces: 2 },
        ],
        usage: { inputTokens: 30, outputTokens: 12 },
        usageUnasked,
      });
      const deltas = await collect(
        model().stream({ messages: MESSAGES, tools: [searchKnowledgeBaseTool(), endCallTool()] }),
      );
      expect(deltas).toEqual([
        { type: 'text', text: 'Let me check.' },
        {
          type: 'tool_call',
          call: { id: 'call_a', name: 'search_knowledge_base', arguments: { query: 'opening hours é' } },
        },
        { type: 'tool_call', call: { id: 'call_b', name: 'end_call', arguments: { reason: 'done' } } },
        { type: 'usage', usage: { inputTokens: 30, outputTokens: 12 } },
      ]);
    });

    it('yields text as it comes, and a stall mid-stream is a timeout LlmError within the deadline', async () => {
      fake.script({ kind: 'reply', text: ['Hello there.', ' And more.'], stallAfter: 2 });
      const got: ChatDelta[] = [];
      const started = performance.now();
      const err = await failureOf(
        (async () => {
          for await (const d of model({ timeoutMs: 300 }).stream({ messages: MESSAGES, tools: [] }))
            got.push(d);
        })(),
      );
      expect(got).toEqual([{ type: 'text', text: 'Hello there.' }]);
      expect(err.failure).toBe('timeout');
      expect(performance.now() - started).toBeLessThan(300 + 1500);
    });

    it('is a timeout LlmError within the deadline when the server sends nothing, or headers and nothing', async () => {
      for (const kind of ['silent', 'silent-body'] as const) {
        fake.script({ kind });
        const started = performance.now();
        const err = await failureOf(
          collect(model({ timeoutMs: 300 }).stream({ messages: MESSAGES, tools: [] })),
        );
        const elapsed = performance.now() - started;
        expect(err.failure).toBe('timeout');
        expect(elapsed).toBeGreaterThanOrEqual(290);
        expect(elapsed).toBeLessThan(300 + 1500);
      }
    });

    it('stops at once on abort, closing the connection', async () => {
      fake.script({ kind: 'reply', text: ['Hello there.', ' And more.'], stallAfter: 2 });
      const controller = new AbortController();
      const it = model({ timeoutMs: 10_000 })
        .stream({ messages: MESSAGES, tools: [] }, controller.signal)
        [Symbol.asyncIterator]();
      expect((await it.next()).value).toEqual({ type: 'text', text: 'Hello there.' });
      const next = it.next();
      const abortedAt = performance.now();
      controller.abort();
      const err = await failureOf(next);
      expect(err.failure).toBe('aborted');
      const closedAt = await fake.last.closed;
      expect(closedAt - abortedAt).toBeLessThan(500);
    });

    it('turns an error status into an LlmError with the status, never quoting the key', async () => {
      fake.script({
        kind: 'error',
        status: 401,
        message: `Incorrect API key provided: ${KEY}. You can find your API key at https://example.com.`,
      });
      const err = await failureOf(collect(model().stream({ messages: MESSAGES, tools: [] })));
      expect(err.failure).toBe('status');
      expect(err.upstreamStatus).toBe(401);
      expect(err.message).toContain('401');
      expect(err.message).toContain('Incorrect API key provided');
      expect(err.message).not.toContain(KEY);
      expect(err.message).not.toContain(KEY.slice(0, 12));
    });

    it('turns a server it cannot reach into a network LlmError', async () => {
      const port = await deadPort();
      const dead = contract.create(
        { baseUrl: `http://127.0.0.1:${port}/v1`, rootUrl: `http://127.0.0.1:${port}` },
        { apiKey: KEY, timeoutMs: 2000 },
      );
      const err = await failureOf(collect(dead.stream({ messages: MESSAGES, tools: [] })));
      expect(err.failure).toBe('network');
      expect(err.message).not.toContain(KEY);
    });

    it('fails a stream that ends before the reply is complete', async () => {
      fake.script({
        kind: 'sse',
        events: [JSON.stringify({ choices: [{ index: 0, delta: { content: 'Hal' } }] })],
        done: false,
      });
      const err = await failureOf(collect(model().stream({ messages: MESSAGES, tools: [] })));
      expect(err.failure).toBe('protocol');
    });

    it('extracts with one non-streamed JSON answer on the same path and key', async () => {
      const keys: EffectiveExtractionKey[] = [
        {
          name: 'interested',
          type: 'boolean',
          description: 'is the callee interested',
          source: 'inline',
          setId: null,
        },
      ];
      fake.script({ kind: 'reply', text: ['{"interested": true}'] });
      const values = await model().extract({
        keys,
        transcript: [
          { role: 'bot', content: 'Would you like a demo?', timestamp: '2025-01-01T10:00:00.000Z' },
          { role: 'user', content: 'Yes please.', timestamp: '2025-01-01T10:00:02.000Z' },
        ],
        variables: {},
      });
      expect(values).toEqual({ interested: true });
      expect(fake.last.path).toBe(contract.chatPath);
      contract.expectKey(fake.last.headers, KEY);
      expect(fake.last.body.stream).toBeUndefined();
      expect(fake.last.body.response_format).toEqual({ type: 'json_object' });
    });
  });
}

export function describeKeyCheckContract(name: string, contract: KeyCheckContract): void {
  describe(`${name}: the key check`, () => {
    let fake: FakeChatServer;
    const target = (): FakeTarget => ({ baseUrl: fake.baseUrl, rootUrl: fake.rootUrl });

    beforeAll(async () => {
      fake = await FakeChatServer.start();
    });
    afterAll(async () => {
      await fake.close();
    });

    it('is ok when the provider answers the key with 2xx, asking where and how the provider wants', async () => {
      fake.script({ kind: 'json', status: 200, json: { object: 'list', data: [] } });
      expect(await contract.check(target(), KEY, 2000)).toEqual({ ok: true });
      expect(fake.last.method).toBe('GET');
      expect(fake.last.path).toBe(contract.path);
      expect(fake.last.query).toEqual(contract.query ?? {});
      contract.expectKey(fake.last.headers, KEY);
    });

    for (const status of contract.alsoOk ?? []) {
      it(`is ok on ${status}`, async () => {
        fake.script({ kind: 'error', status, message: 'not here' });
        expect(await contract.check(target(), KEY, 2000)).toEqual({ ok: true });
      });
    }

    it('is rejected on 401, quoting the provider', async () => {
      fake.script({ kind: 'error', status: 401, message: 'Invalid API key' });
      expect(await contract.check(target(), KEY, 2000)).toEqual({
        ok: false,
        reason: 'rejected',
        status: 401,
        message: 'Invalid API key',
      });
    });

    it('is unreachable on a 5xx and when nothing answers in time', async () => {
      fake.script({ kind: 'error', status: 503, message: 'overloaded' });
      expect(await contract.check(target(), KEY, 2000)).toMatchObject({
        ok: false,
        reason: 'unreachable',
        status: 503,
      });
      fake.script({ kind: 'silent' });
      const started = performance.now();
      expect(await contract.check(target(), KEY, 300)).toMatchObject({ ok: false, reason: 'unreachable' });
      expect(performance.now() - started).toBeLessThan(300 + 1500);
    });
  });
}
