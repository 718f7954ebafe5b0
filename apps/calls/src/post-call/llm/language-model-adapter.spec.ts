import { ChatDelta, ChatRequest, ExtractionInput, LanguageModel, LlmError, OfflineChatModel } from '@vap/llm';
import { LanguageModelAdapter } from './language-model-adapter';

/** A model that records what it is asked and streams a scripted turn. */
class ScriptedModel implements LanguageModel {
  readonly model = 'scripted';
  readonly requests: ChatRequest[] = [];
  constructor(private readonly turn: ChatDelta[]) {}

  async *stream(req: ChatRequest): AsyncGenerator<ChatDelta> {
    this.requests.push(req);
    yield* this.turn;
  }

  async extract(input: ExtractionInput): Promise<Record<string, unknown>> {
    return { keys: input.keys.length };
  }
}

describe('LanguageModelAdapter', () => {
  const offline = new LanguageModelAdapter(new OfflineChatModel());

  it('grounds offline replies in the knowledge the brain found', async () => {
    const reply = await offline.reply({
      prompt: 'You are a helpful agent for Acme.',
      history: [],
      userText: 'What does it cost?',
      knowledge: 'The basic plan costs 10 dollars a month. It includes support. Extra text.',
    });
    expect(reply).toBe(
      'Here is what I can tell you: The basic plan costs 10 dollars a month. It includes support.',
    );
  });

  it('falls back to the agent prompt, deterministically', async () => {
    const input = {
      prompt: 'You are Maya from Acme support. Be brief.',
      history: [],
      userText: 'Who is this?',
      knowledge: null,
    };
    expect(await offline.reply(input)).toBe('Good question. I am Maya from Acme support.');
    expect(await offline.reply(input)).toBe(await offline.reply(input));
    expect(offline.model).toBe('offline-rules-v1');
  });

  it('sends the prompt, history and the knowledge as the search tool’s result, and joins the streamed text', async () => {
    const model = new ScriptedModel([
      { type: 'text', text: ' Sure,' },
      { type: 'text', text: ' the plan costs 10. ' },
      { type: 'tool_call', call: { id: 'x', name: 'search_knowledge_base', arguments: { query: 'again' } } },
    ]);
    const reply = await new LanguageModelAdapter(model).reply({
      prompt: 'You are Maya.',
      history: [
        { role: 'bot', content: 'Hello!', timestamp: 't' },
        { role: 'user', content: 'Hi.', timestamp: 't' },
      ],
      userText: 'Price?',
      knowledge: 'Plan costs 10.',
    });
    expect(reply).toBe('Sure, the plan costs 10.');
    const req = model.requests[0];
    expect(req.tools.map((t) => t.name)).toEqual(['search_knowledge_base']);
    expect(req.messages).toEqual([
      { role: 'system', content: 'You are Maya.' },
      { role: 'system', content: expect.stringContaining('phone call') },
      { role: 'assistant', content: 'Hello!' },
      { role: 'user', content: 'Hi.' },
      { role: 'user', content: 'Price?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'kb_search', name: 'search_knowledge_base', arguments: { query: 'Price?' } }],
      },
      { role: 'tool', tool_call_id: 'kb_search', content: 'Plan costs 10.' },
    ]);
  });

  it('offers no tools without knowledge, and fails when the model says nothing', async () => {
    const model = new ScriptedModel([]);
    const adapter = new LanguageModelAdapter(model);
    await expect(
      adapter.reply({ prompt: 'p', history: [], userText: 'hi', knowledge: null }),
    ).rejects.toThrow(LlmError);
    expect(model.requests[0].tools).toEqual([]);
    expect(model.requests[0].messages).toHaveLength(3);
  });

  it('extracts through the model', async () => {
    const adapter = new LanguageModelAdapter(new ScriptedModel([]));
    expect(await adapter.extract({ keys: [], transcript: [], variables: {} })).toEqual({ keys: 0 });
    expect(adapter.model).toBe('scripted');
  });
});
