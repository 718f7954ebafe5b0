import { EffectiveExtractionKey } from '@vap/messages';
import { ChatDelta, ChatMessage } from './chat-model';
import { endCallTool, searchKnowledgeBaseTool } from './agent-tools';
import { LlmError } from './llm-error';
import { OpenAiCompatibleChatModel } from './openai-compatible-chat-model';
import { chunk, FakeChatServer, textEvents } from './testing/fake-chat-server';

async function collect(deltas: AsyncIterable<ChatDelta>): Promise<ChatDelta[]> {
  const out: ChatDelta[] = [];
  for await (const d of deltas) out.push(d);
  return out;
}

const keys: EffectiveExtractionKey[] = [
  {
    name: 'interested',
    type: 'boolean',
    description: 'is the callee interested',
    source: 'inline',
    setId: null,
  },
  { name: 'seats', type: 'number', description: 'seats needed', source: 'set', setId: 'exs_1' },
];

// Timeouts, stalls, abort and a stream cut short are the chat model contract's, which every OpenAI-wire plugin's
// spec runs on this adapter.
describe('OpenAiCompatibleChatModel against a local OpenAI-shaped server', () => {
  let fake: FakeChatServer;

  beforeAll(async () => {
    fake = await FakeChatServer.start();
  });

  afterAll(async () => {
    await fake.close();
  });

  const model = (timeoutMs = 2000, apiKey: string | null = 'sk-test') =>
    new OpenAiCompatibleChatModel({
      baseUrl: `${fake.baseUrl}/`,
      apiKey: apiKey ?? undefined,
      model: 'test-model',
      timeoutMs,
    });

  it('streams text deltas as they arrive and sends the chat with its tools', async () => {
    fake.script({ kind: 'sse', events: textEvents('Hello', ' there.', ' How can I help?'), gapMs: 5 });
    const messages: ChatMessage[] = [
      { role: 'system', content: 'You are Maya.' },
      { role: 'user', content: 'What does it cost?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', name: 'search_knowledge_base', arguments: { query: 'cost' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'It costs 10.' },
    ];
    const deltas = await collect(
      model().stream({ messages, tools: [searchKnowledgeBaseTool(), endCallTool()], temperature: 0.3 }),
    );
    expect(deltas).toEqual([
      { type: 'text', text: 'Hello' },
      { type: 'text', text: ' there.' },
      { type: 'text', text: ' How can I help?' },
    ]);
    const req = fake.last;
    expect(req.url).toBe('/v1/chat/completions');
    expect(req.headers.authorization).toBe('Bearer sk-test');
    expect(req.body).toEqual({
      model: 'test-model',
      stream: true,
      temperature: 0.3,
      tool_choice: 'auto',
      tools: [
        { type: 'function', function: searchKnowledgeBaseTool() },
        { type: 'function', function: endCallTool() },
      ],
      messages: [
        { role: 'system', content: 'You are Maya.' },
        { role: 'user', content: 'What does it cost?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'search_knowledge_base', arguments: '{"query":"cost"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'It costs 10.' },
      ],
    });
  });

  it('yields the first text before the stream has finished', async () => {
    fake.script({ kind: 'sse', events: textEvents('First.', ' Second.'), gapMs: 300 });
    const started = Date.now();
    const it = model()
      .stream({ messages: [{ role: 'user', content: 'hi' }], tools: [] })
      [Symbol.asyncIterator]();
    const first = await it.next();
    expect(first.value).toEqual({ type: 'text', text: 'First.' });
    expect(Date.now() - started).toBeLessThan(600);
    await it.return?.();
  });

  it('sends neither tools nor tool_choice when there are no tools, and no authorization without a key', async () => {
    fake.script({ kind: 'sse', events: textEvents('Ok.') });
    await collect(model(2000, null).stream({ messages: [{ role: 'user', content: 'hi' }], tools: [] }));
    expect(fake.last.body).toEqual({
      model: 'test-model',
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(fake.last.headers.authorization).toBeUndefined();
  });

  it('assembles tool-call arguments split over chunks, two calls in one turn', async () => {
    fake.script({
      kind: 'sse',
      events: [
        chunk({ role: 'assistant', content: 'Let me check.' }),
        chunk({ tool_calls: [{ index: 0, id: 'call_a', name: 'search_knowledge_base', arguments: '' }] }),
        chunk({ tool_calls: [{ index: 0, arguments: '{"qu' }] }),
        chunk({ tool_calls: [{ index: 0, arguments: 'ery": "pri' }] }),
        chunk({ tool_calls: [{ index: 0, arguments: 'ces \\u00e9"}' }] }),
        chunk({ tool_calls: [{ index: 1, id: 'call_b', name: 'end_call', arguments: '{"rea' }] }),
        chunk({ tool_calls: [{ index: 1, arguments: 'son":"done"}' }] }),
        chunk({}, 'tool_calls'),
      ],
    });
    const deltas = await collect(
      model().stream({
        messages: [{ role: 'user', content: 'prices?' }],
        tools: [searchKnowledgeBaseTool()],
      }),
    );
    expect(deltas).toEqual([
      { type: 'text', text: 'Let me check.' },
      {
        type: 'tool_call',
        call: { id: 'call_a', name: 'search_knowledge_base', arguments: { query: 'prices é' } },
      },
      { type: 'tool_call', call: { id: 'call_b', name: 'end_call', arguments: { reason: 'done' } } },
    ]);
  });

  it('fails with LlmError on tool-call arguments that are not JSON', async () => {
    fake.script({
      kind: 'sse',
      events: [
        chunk({ tool_calls: [{ index: 0, id: 'c', name: 'end_call', arguments: '{"reason": ' }] }),
        chunk({}, 'tool_calls'),
      ],
    });
    const run = collect(
      model().stream({ messages: [{ role: 'user', content: 'bye' }], tools: [endCallTool()] }),
    );
    await expect(run).rejects.toThrow(LlmError);
    await expect(run).rejects.toThrow(/end_call has arguments that are not valid JSON/);
  });

  it('fails with LlmError and the status on an error answer', async () => {
    fake.script({ kind: 'json', status: 500, json: { error: { message: 'the model is overloaded' } } });
    const err = await collect(
      model().stream({ messages: [{ role: 'user', content: 'hi' }], tools: [] }),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmError);
    expect((err as LlmError).failure).toBe('status');
    expect((err as LlmError).upstreamStatus).toBe(500);
    expect((err as LlmError).message).toBe('the LLM server answered 500: the model is overloaded');
  });

  it('does not count the caller’s own time between deltas as server silence', async () => {
    fake.script({ kind: 'sse', events: textEvents('One.', ' Two.') });
    const got: string[] = [];
    for await (const d of model(100).stream({ messages: [{ role: 'user', content: 'hi' }], tools: [] })) {
      if (d.type === 'text') got.push(d.text);
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(got).toEqual(['One.', ' Two.']);
  });

  it('fails when a stream event is not a JSON chunk', async () => {
    fake.script({ kind: 'sse', events: ['{not json'] });
    await expect(
      collect(model().stream({ messages: [{ role: 'user', content: 'hi' }], tools: [] })),
    ).rejects.toThrow(LlmError);
  });

  it('extracts a JSON object through a non-streamed completion, keeping only the schema keys, coerced', async () => {
    fake.script({
      kind: 'json',
      status: 200,
      json: { choices: [{ message: { content: 'Here: {"interested": "yes", "seats": "12", "extra": 1}' } }] },
    });
    const values = await model().extract({
      keys,
      transcript: [{ role: 'user', content: 'Yes, 12 seats', timestamp: 't' }],
      variables: { name: 'Ann' },
    });
    expect(values).toEqual({ interested: true, seats: 12 });
    const body = fake.last.body;
    expect(body.stream).toBeUndefined();
    expect(body.temperature).toBe(0);
    expect(body.response_format).toEqual({ type: 'json_object' });
    const messages = body.messages as { role: string; content: string }[];
    expect(messages[0].content).toContain('- interested (boolean): is the callee interested');
    expect(messages[1].content).toContain('Callee: Yes, 12 seats');
    expect(messages[1].content).toContain('{"name":"Ann"}');
  });

  it('fails extraction on an error status or an answer without a JSON object', async () => {
    fake.script(
      { kind: 'json', status: 503, json: { error: 'down' } },
      { kind: 'json', status: 200, json: { choices: [{ message: { content: 'no json here' } }] } },
    );
    await expect(model().extract({ keys, transcript: [], variables: {} })).rejects.toThrow(
      /answered 503: down/,
    );
    await expect(model().extract({ keys, transcript: [], variables: {} })).rejects.toThrow(/JSON object/);
  });

  it('analyses a call through a non-streamed JSON completion: the summary and the score asked for', async () => {
    fake.script({
      kind: 'json',
      status: 200,
      json: {
        choices: [
          {
            message: {
              content: '{"summary": "Ann booked 12 seats.", "score": 9, "reasons": "Seats booked."}',
            },
          },
        ],
      },
    });
    const answer = await model().analyze({
      transcript: [{ role: 'user', content: 'Yes, 12 seats', timestamp: 't' }],
      variables: { name: 'Ann' },
      summary: true,
      summaryInstructions: 'Say how many seats.',
      successRubric: 'Seats were booked',
    });
    expect(answer).toEqual({
      summary: 'Ann booked 12 seats.',
      success: { score: 9, reasons: 'Seats booked.' },
    });
    const body = fake.last.body;
    expect(body.stream).toBeUndefined();
    expect(body.response_format).toEqual({ type: 'json_object' });
    const messages = body.messages as { role: string; content: string }[];
    expect(messages[0].content).toContain('Say how many seats.');
    expect(messages[0].content).toContain('Success criteria: Seats were booked');
    expect(messages[1].content).toContain('Caller: Yes, 12 seats');
  });

  it('cannot reach a closed port: a network LlmError', async () => {
    const dead = new OpenAiCompatibleChatModel({
      baseUrl: 'http://127.0.0.1:9',
      model: 'm',
      timeoutMs: 2000,
    });
    const err = await dead.complete([{ role: 'user', content: 'hi' }]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmError);
    expect((err as LlmError).failure).toBe('network');
  });
});
