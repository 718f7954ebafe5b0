// What every OpenAI-wire model adapter must do, as one set of specs each plugin's spec runs against the fake chat
// server: stream text, assemble streamed tool calls, report usage once, send the parameters and the key as its
// provider names them, and answer extraction through the non-streamed path; and the chat model contract every
// model plugin passes (failures, hangs, stalls, abort, keys kept out of errors), played by the same fake.
import type { IncomingHttpHeaders } from 'node:http';
import type { EffectiveExtractionKey } from '@vap/messages';
import { endCallTool, searchKnowledgeBaseTool } from '../agent-tools';
import type { ChatMessage } from '../chat-model';
import type { KeyCheck } from '../key-check';
import type { LanguageModel } from '../language-model';
import { collect, describeChatModelContract, type ContractAnswer } from './chat-model-contract';
import { FakeChatServer, type FakeAnswer } from './fake-chat-server';

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

/** The chat model contract's answers as the fake chat server plays them. */
function chatServerAnswer(answer: ContractAnswer): FakeAnswer {
  switch (answer.kind) {
    case 'reply':
      // The first event is the assistant role chunk, before any text.
      return { ...answer, stallAfter: answer.stallAfter === undefined ? undefined : answer.stallAfter + 1 };
    case 'cut-short':
      return {
        kind: 'sse',
        events: [JSON.stringify({ choices: [{ index: 0, delta: { content: answer.text } }] })],
        done: false,
      };
    default:
      return answer;
  }
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
  describeChatModelContract(name, {
    apiKey: KEY,
    async startFake() {
      const server = await FakeChatServer.start();
      return {
        play: (answer) => server.script(chatServerAnswer(answer)),
        lastClosed: () => server.last.closed,
        model: (timeoutMs) =>
          contract.create({ baseUrl: server.baseUrl, rootUrl: server.rootUrl }, { apiKey: KEY, timeoutMs }),
        close: () => server.close(),
      };
    },
    modelAt: (origin) =>
      contract.create({ baseUrl: `${origin}/v1`, rootUrl: origin }, { apiKey: KEY, timeoutMs: 2000 }),
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
