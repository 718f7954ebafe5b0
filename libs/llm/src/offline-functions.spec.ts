import { endCallTool, searchKnowledgeBaseTool } from './agent-tools';
import { ChatDelta, ChatMessage, ChatRequest, ToolSpec } from './chat-model';
import { OfflineChatModel } from './offline-chat-model';
import { stem, topicStems } from './offline-functions';

const llm = new OfflineChatModel();
const system: ChatMessage = { role: 'system', content: 'You are Maya from Acme support.' };

const checkOrder: ToolSpec = {
  name: 'check_order',
  description: 'Look up an order.',
  parameters: {
    type: 'object',
    properties: {
      order_number: { type: 'string' },
      express: { type: 'boolean' },
      items: { type: 'integer' },
    },
    required: ['order_number'],
  },
};
const bookTable: ToolSpec = {
  name: 'bookTable',
  description: 'Book a table.',
  parameters: { type: 'object', properties: { name: { type: 'string' } } },
};
const tools = [endCallTool(), searchKnowledgeBaseTool(), checkOrder, bookTable];

async function turn(req: ChatRequest): Promise<ChatDelta[]> {
  const out: ChatDelta[] = [];
  for await (const d of llm.stream(req)) out.push(d);
  return out;
}

async function callOf(text: string, offered = tools) {
  const deltas = await turn({ messages: [system, { role: 'user', content: text }], tools: offered });
  return deltas.length === 1 && deltas[0].type === 'tool_call' ? deltas[0].call : null;
}

async function replyAfter(tool: string, content: string): Promise<string> {
  const deltas = await turn({
    messages: [
      system,
      { role: 'user', content: 'x' },
      { role: 'assistant', content: null, tool_calls: [{ id: 't1', name: tool, arguments: {} }] },
      { role: 'tool', tool_call_id: 't1', content },
    ],
    tools,
  });
  return deltas.map((d) => (d.type === 'text' ? d.text : '')).join('');
}

describe('OfflineChatModel: partner functions', () => {
  it('calls a function the caller names, reading key is value / key: value pairs typed by its schema', async () => {
    expect(await callOf('Please check order, order number is A-42, express: yes and items is 3.')).toEqual({
      id: 'call_offline_2',
      name: 'check_order',
      arguments: { order_number: 'A-42', express: true, items: 3 },
    });
    // Underscores may be said as spaces or written; the name comes before the other rules (a question here).
    expect((await callOf('Can you check_order the order number: 7?'))?.arguments).toEqual({
      order_number: '7',
    });
  });

  it('calls check_order from the sandbox callee’s line (outcome 09)', async () => {
    expect((await callOf('Please check order, order number is 42.'))?.arguments).toEqual({
      order_number: '42',
    });
  });

  it('a function with one parameter takes the rest of the line', async () => {
    expect(await callOf('Book table for Ada Lovelace.')).toEqual({
      id: 'call_offline_2',
      name: 'bookTable',
      arguments: { name: 'Ada Lovelace' },
    });
    // Nothing after the name: no arguments (the agents service tells the model what is missing).
    expect((await callOf('check order'))?.arguments).toEqual({});
  });

  it('only offered functions, and never for a line that does not name one', async () => {
    expect(await callOf('Book table for two.', [endCallTool()])).toBeNull();
    expect((await callOf('What is my order status?'))?.name).toBe('search_knowledge_base');
    expect(await callOf('I would like to check my order.')).toBeNull();
  });

  it('calls a function the line is about, from its description and parameters, with the digits it holds', async () => {
    const lookupOrder: ToolSpec = {
      name: 'lookup_order',
      description: 'Look up an order by its number',
      parameters: {
        type: 'object',
        properties: { order_number: { type: 'string', description: 'The order number' } },
        required: ['order_number'],
      },
    };
    const offered = [endCallTool(), searchKnowledgeBaseTool(), lookupOrder];
    expect(await callOf('Where is my order 12345?', offered)).toEqual({
      id: 'call_offline_2',
      name: 'lookup_order',
      arguments: { order_number: '12345' },
    });
    // Stems meet ("orders"), digits said apart join, a number parameter gets a number.
    const refund: ToolSpec = {
      name: 'start_refund',
      description: 'Refund a purchase',
      parameters: {
        type: 'object',
        properties: { amount: { type: 'number', description: 'How much to give back' } },
        required: ['amount'],
      },
    };
    expect(await callOf('I ordered twice, my orders are 12 34.', offered)).toMatchObject({
      name: 'lookup_order',
      arguments: { order_number: '1234' },
    });
    expect(await callOf('Can I get a refund of 40?', [...offered, refund])).toMatchObject({
      name: 'start_refund',
      arguments: { amount: 40 },
    });
    // A recogniser writes a number said digit by digit as words: they are the number; one lone word is not.
    expect(await callOf('william my order one two three four five', offered)).toMatchObject({
      name: 'lookup_order',
      arguments: { order_number: '12345' },
    });
    expect(await callOf('Where is my order, oh nine-one?', offered)).toMatchObject({
      arguments: { order_number: '091' },
    });
    expect((await callOf('Where is my order one?', offered))?.name).toBe('search_knowledge_base');
    // Without what the function requires, the other rules answer: a question searches the knowledge base.
    expect((await callOf('Where is my order?', offered))?.name).toBe('search_knowledge_base');
    // Words the function's description does not hold call nothing, digits or not.
    expect(await callOf('My flight is 12345.', offered)).toBeNull();
  });

  it('stems words so that plural and past forms meet', () => {
    expect(['orders', 'ordered', 'ordering', 'order'].map(stem)).toEqual([
      'order',
      'order',
      'order',
      'order',
    ]);
    expect([...topicStems('Where is my order, please?')]).toEqual(['order']);
  });

  it('speaks a function’s answer: a JSON object’s fields, text as is, failures and pending answers briefly', async () => {
    expect(await replyAfter('check_order', '{"order_status":"shipped","eta":"Friday","lines":[1]}')).toBe(
      'Done. order status shipped, eta Friday.',
    );
    expect(await replyAfter('check_order', 'It ships today\n(Call variables now set: eta.)')).toBe(
      'Done. It ships today.',
    );
    expect(await replyAfter('check_order', 'The function failed (timeout). Tell the caller briefly.')).toBe(
      'I am sorry, that did not work.',
    );
    expect(
      await replyAfter('check_order', 'The function failed (503). The caller has been told: "Down."'),
    ).toBe('Is there anything else I can help with?');
    expect(await replyAfter('check_order', 'The request to check_order is running; later.')).toBe(
      'I have asked. I will tell you as soon as I hear back.',
    );
    expect(await replyAfter('check_order', 'The arguments were not valid, so nothing was sent: x.')).toBe(
      'I am sorry, I need a few more details for that.',
    );
  });
});
