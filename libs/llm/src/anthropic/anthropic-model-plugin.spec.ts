import type { EffectiveExtractionKey } from '@vap/messages';
import { endCallTool, searchKnowledgeBaseTool } from '../agent-tools';
import type { ChatDelta, ChatMessage } from '../chat-model';
import type { LanguageModel } from '../language-model';
import type { ModelConfig } from '../plugin';
import { describeKeyCheckContract } from '../testing/chat-adapter-contract';
import {
  collect,
  describeChatModelContract,
  failureOf,
  type ContractAnswer,
} from '../testing/chat-model-contract';
import {
  anthropicReplyEvents,
  FakeAnthropicServer,
  type FakeAnthropicAnswer,
} from '../testing/fake-anthropic-server';
import { ANTHROPIC_DEFAULT_MAX_TOKENS, anthropicModelPlugin } from '.';

const KEY = 'sk-ant-api03-test0123456789abcdef';
const MODEL = 'claude-haiku-4-5';
const MESSAGES: ChatMessage[] = [
  { role: 'system', content: 'You are Maya.' },
  { role: 'user', content: 'Can I end the call?' },
];

/** The chat model contract's answers as Anthropic sends them. */
function anthropicAnswer(answer: ContractAnswer): FakeAnthropicAnswer {
  switch (answer.kind) {
    case 'cut-short':
      // The reply's text, then the stream ends with no content_block_stop or message_stop.
      return {
        kind: 'events',
        events: anthropicReplyEvents({ kind: 'reply', text: [answer.text] }, MODEL, 1),
      };
    default:
      return answer;
  }
}

describe('Anthropic: the chat adapter against a fake speaking the Messages API', () => {
  let fake: FakeAnthropicServer;
  const model = (overrides: Partial<ModelConfig> = {}): LanguageModel =>
    anthropicModelPlugin.create({
      baseUrl: fake.baseUrl,
      apiKey: KEY,
      model: MODEL,
      timeoutMs: 2000,
      ...overrides,
    });

  beforeAll(async () => {
    fake = await FakeAnthropicServer.start({ apiKey: KEY });
  });
  afterAll(async () => {
    await fake.close();
  });

  it('streams the reply, sending the key, the version, the system prompt apart, the tools and the parameters, and reports usage once', async () => {
    fake.script({
      kind: 'reply',
      text: ['Yes,', ' of course.'],
      usage: { inputTokens: 42, outputTokens: 7 },
    });
    const deltas = await collect(
      model().stream({ messages: MESSAGES, tools: [endCallTool()], temperature: 0.4, maxTokens: 120 }),
    );
    expect(deltas).toEqual([
      { type: 'text', text: 'Yes,' },
      { type: 'text', text: ' of course.' },
      { type: 'usage', usage: { inputTokens: 42, outputTokens: 7 } },
    ]);
    const req = fake.last;
    expect([req.method, req.path]).toEqual(['POST', '/v1/messages']);
    expect(req.apiKey).toBe(KEY);
    expect(req.version).toBe('2023-06-01');
    expect(req.headers.authorization).toBeUndefined();
    expect(req.body).toEqual({
      model: MODEL,
      system: 'You are Maya.',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Can I end the call?' }] }],
      tools: [
        {
          name: endCallTool().name,
          description: endCallTool().description,
          input_schema: endCallTool().parameters,
        },
      ],
      max_tokens: 120,
      temperature: 0.4,
      stream: true,
    });
  });

  it("sends the agent's parameters when the turn names none, max_tokens always, and top_p only without a temperature", async () => {
    fake.script(
      { kind: 'reply', text: ['Ok.'] },
      { kind: 'reply', text: ['Ok.'] },
      { kind: 'reply', text: ['Ok.'] },
    );
    await collect(model({ temperature: 0.2, maxTokens: 50 }).stream({ messages: MESSAGES, tools: [] }));
    expect(fake.last.parameters).toEqual({ max_tokens: 50, temperature: 0.2, top_p: undefined });
    expect(fake.last.tools).toEqual([]);
    expect(fake.last.body.tools).toBeUndefined();
    await collect(model({ topP: 0.5 }).stream({ messages: MESSAGES, tools: [] }));
    expect(fake.last.parameters).toEqual({
      max_tokens: ANTHROPIC_DEFAULT_MAX_TOKENS,
      temperature: undefined,
      top_p: 0.5,
    });
    // Current Claude models refuse both: the temperature is the one sent.
    await collect(model({ temperature: 0.7, topP: 0.9 }).stream({ messages: MESSAGES, tools: [] }));
    expect(fake.last.parameters).toEqual({
      max_tokens: ANTHROPIC_DEFAULT_MAX_TOKENS,
      temperature: 0.7,
      top_p: undefined,
    });
  });

  it('sends earlier tool calls as tool_use blocks and their results as one user turn of tool_result blocks', async () => {
    fake.script({ kind: 'reply', text: ['It is open until nine.'] });
    await collect(
      model().stream({
        messages: [
          { role: 'system', content: 'You are Maya.' },
          { role: 'assistant', content: 'Hello, this is Maya.' },
          { role: 'user', content: 'When are you open, and is my order ready?' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'toolu_a', name: 'search_knowledge_base', arguments: { query: 'hours' } },
              { id: 'toolu_b', name: 'check_order', arguments: { order: 42 } },
            ],
          },
          { role: 'tool', tool_call_id: 'toolu_a', content: 'Open 9 to 9.' },
          { role: 'tool', tool_call_id: 'toolu_b', content: '{"status":"ready"}' },
          { role: 'system', content: 'The caller is a member.' },
        ],
        tools: [searchKnowledgeBaseTool()],
      }),
    );
    expect(fake.last.system).toBe('You are Maya.\n\nThe caller is a member.');
    expect(fake.last.messages).toEqual([
      { role: 'assistant', content: [{ type: 'text', text: 'Hello, this is Maya.' }] },
      { role: 'user', content: [{ type: 'text', text: 'When are you open, and is my order ready?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'toolu_a', name: 'search_knowledge_base', input: { query: 'hours' } },
          { type: 'tool_use', id: 'toolu_b', name: 'check_order', input: { order: 42 } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_a', content: 'Open 9 to 9.' },
          { type: 'tool_result', tool_use_id: 'toolu_b', content: '{"status":"ready"}' },
        ],
      },
    ]);
  });

  it('assembles tool_use blocks whose input streams in pieces, two in one turn, then the usage', async () => {
    fake.script({
      kind: 'reply',
      text: ['Let me check.'],
      toolUses: [
        { id: 'toolu_a', name: 'search_knowledge_base', input: { query: 'opening hours é' }, pieces: 4 },
        { id: 'toolu_b', name: 'end_call', input: {}, pieces: 1 },
      ],
      usage: { inputTokens: 30, outputTokens: 12 },
    });
    const deltas = await collect(
      model().stream({ messages: MESSAGES, tools: [searchKnowledgeBaseTool(), endCallTool()] }),
    );
    expect(deltas).toEqual([
      { type: 'text', text: 'Let me check.' },
      {
        type: 'tool_call',
        call: { id: 'toolu_a', name: 'search_knowledge_base', arguments: { query: 'opening hours é' } },
      },
      { type: 'tool_call', call: { id: 'toolu_b', name: 'end_call', arguments: {} } },
      { type: 'usage', usage: { inputTokens: 30, outputTokens: 12 } },
    ]);
  });

  it("says who answered the error, keeps Anthropic's masked key out, and refuses a key the fake does not take", async () => {
    fake.script({
      kind: 'error',
      status: 401,
      type: 'authentication_error',
      message: `invalid x-api-key ${KEY} (sk-ant-api03-abc...wxyz)`,
    });
    const err = await failureOf(collect(model().stream({ messages: MESSAGES, tools: [] })));
    expect(err.message).toContain('Anthropic answered 401: invalid x-api-key');
    expect(err.message).not.toContain('sk-ant');

    // A key the fake does not take, unscripted: Anthropic's own refusal.
    const other = await failureOf(
      collect(model({ apiKey: 'sk-ant-other-000000000' }).stream({ messages: MESSAGES, tools: [] })),
    );
    expect(other.upstreamStatus).toBe(401);
    expect(other.message).not.toContain('sk-ant-other');
  });

  it('turns an error event mid-stream into an LlmError after the text already streamed', async () => {
    fake.script({ kind: 'stream-error', text: ['Well,'], type: 'overloaded_error', message: 'Overloaded' });
    const got: ChatDelta[] = [];
    const err = await failureOf(
      (async () => {
        for await (const d of model().stream({ messages: MESSAGES, tools: [] })) got.push(d);
      })(),
    );
    expect(got).toEqual([{ type: 'text', text: 'Well,' }]);
    expect(err.failure).toBe('status');
    expect(err.upstreamStatus).toBe(529);
    expect(err.message).toContain('overloaded_error: Overloaded');
  });

  it('fails a tool_use whose input is not JSON', async () => {
    fake.script({
      kind: 'events',
      events: [
        {
          event: 'content_block_start',
          data: {
            type: 'content_block_start',
            index: 0,
            content_block: { type: 'tool_use', id: 't', name: 'end_call', input: {} },
          },
        },
        {
          event: 'content_block_delta',
          data: {
            type: 'content_block_delta',
            index: 0,
            delta: { type: 'input_json_delta', partial_json: '{"a":' },
          },
        },
        { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
        { event: 'message_stop', data: { type: 'message_stop' } },
      ],
    });
    const err = await failureOf(collect(model().stream({ messages: MESSAGES, tools: [] })));
    expect(err.failure).toBe('protocol');
    expect(err.message).toMatch(/end_call has input that is not valid JSON/);
  });

  it('extracts and analyses with one non-streamed message on the same path and key', async () => {
    const keys: EffectiveExtractionKey[] = [
      {
        name: 'interested',
        type: 'boolean',
        description: 'is the callee interested',
        source: 'inline',
        setId: null,
      },
    ];
    const transcript = [
      { role: 'bot' as const, content: 'Would you like a demo?', timestamp: '2025-01-01T10:00:00.000Z' },
      { role: 'user' as const, content: 'Yes please.', timestamp: '2025-01-01T10:00:02.000Z' },
    ];
    fake.script(
      { kind: 'reply', text: ['{"interested": true}'] },
      {
        kind: 'reply',
        text: ['Here it is: {"summary": "The callee wants a demo.", "score": 8, "reasons": "Agreed."}'],
      },
    );
    expect(await model().extract({ keys, transcript, variables: {} })).toEqual({ interested: true });
    const asked = fake.last;
    expect([asked.path, asked.apiKey, asked.version, asked.stream]).toEqual([
      '/v1/messages',
      KEY,
      '2023-06-01',
      false,
    ]);
    expect(asked.body.stream).toBeUndefined();
    expect(asked.parameters).toEqual({
      max_tokens: ANTHROPIC_DEFAULT_MAX_TOKENS,
      temperature: 0,
      top_p: undefined,
    });
    expect(typeof asked.system).toBe('string');
    expect(asked.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: expect.stringContaining('Yes please.') }] },
    ]);
    expect(
      await model().analyze({
        transcript,
        variables: {},
        summary: true,
        summaryInstructions: null,
        successRubric: 'a demo',
      }),
    ).toEqual({ summary: 'The callee wants a demo.', success: { score: 8, reasons: 'Agreed.' } });
  });
});

describeChatModelContract('Anthropic', {
  apiKey: KEY,
  async startFake() {
    const server = await FakeAnthropicServer.start({ apiKey: KEY });
    return {
      play: (answer) => server.script(anthropicAnswer(answer)),
      lastClosed: () => server.last.closed,
      model: (timeoutMs) =>
        anthropicModelPlugin.create({ baseUrl: server.baseUrl, apiKey: KEY, model: MODEL, timeoutMs }),
      close: () => server.close(),
    };
  },
  modelAt: (origin) =>
    anthropicModelPlugin.create({ baseUrl: `${origin}/v1`, apiKey: KEY, model: MODEL, timeoutMs: 2000 }),
});

describeKeyCheckContract('Anthropic', {
  check: (target, apiKey, timeoutMs) =>
    anthropicModelPlugin.checkKey({ baseUrl: target.baseUrl, apiKey, timeoutMs }),
  path: '/v1/models',
  expectKey: (headers, apiKey) => {
    expect(headers['x-api-key']).toBe(apiKey);
    expect(headers['anthropic-version']).toBe('2023-06-01');
    expect(headers.authorization).toBeUndefined();
  },
});

describe('Anthropic model plugin', () => {
  it('checks a key against the fake: ok for its key, rejected quoting Anthropic for another', async () => {
    const fake = await FakeAnthropicServer.start({ apiKey: KEY });
    try {
      expect(
        await anthropicModelPlugin.checkKey({ baseUrl: fake.baseUrl, apiKey: KEY, timeoutMs: 2000 }),
      ).toEqual({ ok: true });
      expect(
        await anthropicModelPlugin.checkKey({
          baseUrl: fake.rootUrl,
          apiKey: 'sk-ant-wrong-0000',
          timeoutMs: 2000,
        }),
      ).toEqual({ ok: false, reason: 'rejected', status: 401, message: 'invalid x-api-key' });
      expect(fake.keyChecks.map((r) => [r.path, r.apiKey, r.version])).toEqual([
        ['/v1/models', KEY, '2023-06-01'],
        ['/v1/models', 'sk-ant-wrong-0000', '2023-06-01'],
      ]);
    } finally {
      await fake.close();
    }
  });

  it("talks to Anthropic's public API unless a setting says otherwise, offering Claude models that take a temperature from 0 to 1", () => {
    expect(anthropicModelPlugin).toMatchObject({
      name: 'anthropic',
      label: 'Anthropic',
      defaultBaseUrl: 'https://api.anthropic.com/v1',
    });
    expect(anthropicModelPlugin.models.map((m) => m.id)).toEqual(
      expect.arrayContaining(['claude-haiku-4-5', 'claude-sonnet-4-5']),
    );
    for (const card of anthropicModelPlugin.models) {
      expect(card).toMatchObject({ tools: true, speechToSpeech: false, temperature: { min: 0, max: 1 } });
      expect(card.contextWindow).toBeGreaterThanOrEqual(200_000);
    }
  });
});
