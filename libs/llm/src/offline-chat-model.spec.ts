import { EffectiveExtractionKey, TranscriptEntry } from '@vap/messages';
import { endCallTool, searchKnowledgeBaseTool, transferCallTool } from './agent-tools';
import { ChatDelta, ChatMessage, ChatRequest, ToolSpec } from './chat-model';
import { LlmError } from './llm-error';
import { OfflineChatModel } from './offline-chat-model';

const llm = new OfflineChatModel();
const system: ChatMessage = { role: 'system', content: 'You are Maya from Acme support. Be brief and kind.' };
const allTools = [endCallTool(), transferCallTool(), searchKnowledgeBaseTool()];

async function turn(req: ChatRequest): Promise<ChatDelta[]> {
  const out: ChatDelta[] = [];
  for await (const d of llm.stream(req)) out.push(d);
  return out;
}

const said = (text: string, tools: ToolSpec[] = allTools): ChatRequest => ({
  messages: [system, { role: 'assistant', content: 'Hello, this is Maya.' }, { role: 'user', content: text }],
  tools,
});

async function toolOf(req: ChatRequest) {
  const deltas = await turn(req);
  return deltas.length === 1 && deltas[0].type === 'tool_call' ? deltas[0].call : null;
}

async function textOf(req: ChatRequest): Promise<string> {
  const deltas = await turn(req);
  expect(deltas.every((d) => d.type === 'text')).toBe(true);
  return deltas.map((d) => (d.type === 'text' ? d.text : '')).join('');
}

describe('OfflineChatModel', () => {
  it('ends the call when the caller says goodbye, only when end_call is offered and nothing else is asked', async () => {
    expect(await toolOf(said('Great, that is helpful. Thank you, bye.'))).toEqual({
      id: 'call_offline_3',
      name: 'end_call',
      arguments: { reason: 'the caller said goodbye' },
    });
    expect((await toolOf(said('No thanks.')))?.name).toBe('end_call');
    expect(await toolOf(said('Thank you, bye.', [transferCallTool(), searchKnowledgeBaseTool()]))).toBeNull();
    expect(await textOf(said('Thank you, bye.', []))).toBe('Thank you for your time. Goodbye.');
    // A goodbye that also asks something is a question first.
    expect((await toolOf(said('Bye, but what does the basic plan cost?')))?.name).toBe(
      'search_knowledge_base',
    );
  });

  it('transfers when the caller asks for a human, when transfer_call is offered', async () => {
    expect(await toolOf(said('Hi. Can I speak to a human, please?'))).toEqual({
      id: 'call_offline_3',
      name: 'transfer_call',
      arguments: { reason: 'the caller asked for a human' },
    });
    expect((await toolOf(said('Please transfer me to your manager.')))?.name).toBe('transfer_call');
    expect((await toolOf(said('Can I talk to a representative?', [searchKnowledgeBaseTool()])))?.name).toBe(
      'search_knowledge_base',
    );
  });

  it('searches the knowledge base with the caller’s words when they ask a question', async () => {
    expect(await toolOf(said('Can you tell me about your plans and pricing?'))).toEqual({
      id: 'call_offline_3',
      name: 'search_knowledge_base',
      arguments: { query: 'Can you tell me about your plans and pricing?' },
    });
    expect((await toolOf(said('how much is shipping')))?.name).toBe('search_knowledge_base');
    expect(await toolOf(said('I would like to know more.'))).toBeNull();
    expect(await textOf(said('What is this about?', [endCallTool()]))).toBe(
      'Good question. I am Maya from Acme support.',
    );
  });

  it('answers from a knowledge-base result, grounded in its first sentences', async () => {
    const req: ChatRequest = {
      messages: [
        system,
        { role: 'user', content: 'What does it cost?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'kb1', name: 'search_knowledge_base', arguments: { query: 'What does it cost?' } },
          ],
        },
        {
          role: 'tool',
          tool_call_id: 'kb1',
          content: 'The basic plan costs 10 dollars a month.\n It includes support. Extra text.',
        },
      ],
      tools: allTools,
    };
    expect(await textOf(req)).toBe(
      'Here is what I can tell you: The basic plan costs 10 dollars a month. It includes support.',
    );
    const empty = { ...req, messages: [...req.messages.slice(0, 3), { ...req.messages[3], content: ' ' }] };
    expect(await textOf(empty as ChatRequest)).toBe('I am sorry, I could not find anything about that.');
  });

  it('confirms other tools’ results briefly, and says so when one failed', async () => {
    const after = (content: string): ChatRequest => ({
      messages: [
        system,
        { role: 'user', content: 'a human please' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 't1', name: 'transfer_call', arguments: {} }],
        },
        { role: 'tool', tool_call_id: 't1', content },
      ],
      tools: allTools,
    });
    expect(await textOf(after('transferred'))).toBe('Done. Is there anything else I can help with?');
    expect(await textOf(after('the transfer failed: the carrier refused'))).toBe(
      'I am sorry, that did not work.',
    );
  });

  it('otherwise replies in the agent’s words, short, streamed word by word', async () => {
    const deltas = await turn(said('Hello? Yes, speaking. This is a good time.'));
    expect(deltas.map((d) => (d.type === 'text' ? d.text : '?'))).toEqual([
      'Thank',
      ' you.',
      ' I',
      ' am',
      ' Maya',
      ' from',
      ' Acme',
      ' support.',
    ]);
    const long: ChatRequest = {
      messages: [
        {
          role: 'system',
          content:
            'You are Priya, a warm and patient assistant for Acme Health who helps families compare insurance plans, answer billing questions and book appointments with doctors.',
        },
        { role: 'user', content: 'Okay.' },
      ],
      tools: [],
    };
    const reply = await textOf(long);
    expect(reply.split(' ').length).toBeLessThanOrEqual(20);
    expect(reply).toMatch(/^Thank you\. I am Priya, .*\.$/);
  });

  it('presses the key of the menu option the agent is after, when send_dtmf is offered', async () => {
    const dtmf = { name: 'send_dtmf', description: 'Press keys', parameters: {} };
    const menu = (text: string, prompt: string, tools: ToolSpec[] = [dtmf, ...allTools]): ChatRequest => ({
      messages: [
        { role: 'system', content: prompt },
        { role: 'user', content: text },
      ],
      tools,
    });
    const line =
      'Welcome to Acme. Press 1 for billing, press 2 for sales, or press 0 to speak to an operator.';
    expect(await toolOf(menu(line, 'You call Acme to reach the sales team.'))).toEqual({
      id: 'call_offline_2',
      name: 'send_dtmf',
      arguments: { digits: '2' },
    });
    expect((await toolOf(menu('For billing, press 3.', 'Ask about a billing question.')))?.arguments).toEqual(
      {
        digits: '3',
      },
    );
    // An option the prompt does not name, or a model without the tool, presses nothing.
    expect(await toolOf(menu(line, 'You are a friendly receptionist.', [dtmf]))).toBeNull();
    expect(await toolOf(menu(line, 'You call Acme to reach the sales team.', [endCallTool()]))).toBeNull();
  });

  it('says nothing after pressing keys for a menu, and says so when they did not go', async () => {
    const request = (result: string): ChatRequest => ({
      messages: [
        system,
        { role: 'user', content: 'Press 2 for sales.' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'k1', name: 'send_dtmf', arguments: { digits: '2' } }],
        },
        { role: 'tool', tool_call_id: 'k1', content: result },
      ],
      tools: allTools,
    });
    expect(await turn(request('Pressed 2.'))).toEqual([]);
    expect(await textOf(request('The keys could not be sent; the call may have ended.'))).toBe(
      'I am sorry, that did not work.',
    );
  });

  it('acknowledges the keys a caller pressed, digit by digit', async () => {
    expect(await textOf(said('[keypad] 4711 #'))).toBe('Thank you. I have the number 4 7 1 1.');
    expect(await textOf(said('[keypad] 12'))).toBe('Thank you. I have the number 1 2.');
    expect(await textOf(said('[keypad] #'))).toBe('Thank you.');
  });

  it('is deterministic: the same chat gives the same turn', async () => {
    const req = said('What are your opening hours?');
    expect(await turn(req)).toEqual(await turn(req));
    const chat = said('Sounds good.');
    expect(await textOf(chat)).toBe(await textOf(chat));
  });

  it('stops on an aborted signal', async () => {
    const controller = new AbortController();
    controller.abort();
    const run = async () => {
      for await (const _ of llm.stream(said('Sounds good.'), controller.signal)) void _;
    };
    await expect(run()).rejects.toThrow(LlmError);
  });
});

const key = (
  name: string,
  type: EffectiveExtractionKey['type'],
  description: string,
  options?: string[],
): EffectiveExtractionKey => ({ name, type, description, options, source: 'inline', setId: null });

const t = (role: 'user' | 'bot', content: string): TranscriptEntry => ({
  role,
  content,
  timestamp: '2026-01-01T00:00:00.000Z',
});

describe('OfflineChatModel extraction', () => {
  it('extracts values by key type from what the callee said', async () => {
    const values = await llm.extract({
      variables: {},
      keys: [
        key('interested', 'boolean', 'whether the callee is interested in the offer'),
        key('callback_date', 'date', 'date for a callback'),
        key('seats', 'number', 'how many seats they need'),
        key('plan', 'enum', 'plan chosen', ['basic', 'premium']),
        key('budget_owner', 'string', 'who owns the budget'),
      ],
      transcript: [
        t('bot', 'Are you interested in the offer?'),
        t('user', 'Yes, I am interested in the offer. We need 12 seats.'),
        t('user', 'Please call me back on March 3rd, 2027. The premium plan sounds right.'),
      ],
    });
    expect(values).toEqual({
      interested: true,
      callback_date: '2027-03-03',
      seats: 12,
      plan: 'premium',
      budget_owner: null,
    });
  });

  it('reads a negation as false', async () => {
    const values = await llm.extract({
      variables: {},
      keys: [key('interested', 'boolean', 'is the callee interested')],
      transcript: [t('user', 'No, I am not interested.')],
    });
    expect(values).toEqual({ interested: false });
  });
});
