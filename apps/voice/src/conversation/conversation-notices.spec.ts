import type { ChatDelta } from '@vap/llm';
import { CallHarness } from './testing/conversation-harness';

const toolCall = (name: string, args: Record<string, unknown> = {}, id = `call-${name}`): ChatDelta => ({
  type: 'tool_call',
  call: { id, name, arguments: args },
});

describe('conversation: notices to the transport (what a browser client shows)', () => {
  let call: CallHarness | undefined;
  afterEach(async () => {
    await call?.close();
    call = undefined;
  });

  it('tells the transcript as reported, the agent speaking from first frame to line done, and tools running', async () => {
    call = new CallHarness({
      agent: { intro_message: 'Hello from {{company}}.', end_call_message: 'Goodbye.' },
      sttTexts: ['That is all, thanks.'],
      model: [{ deltas: [{ type: 'text', text: 'Glad I could help.' }, toolCall('end_call')] }],
    }).start();
    await call.until(
      () => call!.notices.some((n) => n.type === 'transcript' && n.role === 'agent'),
      'the intro line',
    );
    call.say(400);
    const done = await call.done();
    expect(done.endCallReason).toBe('agent_ended_call');
    const notices = call.notices.filter((n) => n.type !== 'transcript' || n.final);
    expect(notices).toEqual([
      { type: 'agent.speaking', speaking: true },
      { type: 'agent.speaking', speaking: false },
      { type: 'transcript', role: 'agent', text: 'Hello from Acme.', final: true },
      { type: 'transcript', role: 'user', text: 'That is all, thanks.', final: true },
      { type: 'tool', name: 'end_call', status: 'running' },
      { type: 'agent.speaking', speaking: true },
      { type: 'agent.speaking', speaking: false },
      { type: 'transcript', role: 'agent', text: 'Glad I could help. Goodbye.', final: true },
      // A tool that ends the call has no `done`: the session's end follows.
    ]);
    // Interim words, when the STT gives them, are the user's only, and never final.
    for (const n of call.notices.filter((n) => n.type === 'transcript' && !n.final)) {
      expect(n).toMatchObject({ role: 'user' });
    }
  });

  it('tells a tool running and done around its work', async () => {
    call = new CallHarness({
      agent: { has_knowledge: true },
      sttTexts: ['How long do refunds take?'],
      model: [
        { deltas: [toolCall('search_knowledge_base', { query: 'refund time' })] },
        { deltas: [{ type: 'text', text: 'Refunds take five days.' }] },
      ],
    }).start();
    call.say(400);
    await call.until(
      () => call!.notices.some((n) => n.type === 'transcript' && n.text === 'Refunds take five days.'),
      'the answer',
    );
    const tools = call.notices.filter((n) => n.type === 'tool');
    expect(tools).toEqual([
      { type: 'tool', name: 'search_knowledge_base', status: 'running' },
      { type: 'tool', name: 'search_knowledge_base', status: 'done' },
    ]);
    // Done before the answer it fed is spoken.
    const order = call.notices.map((n) => (n.type === 'tool' ? n.status : n.type));
    expect(order.indexOf('done')).toBeLessThan(order.lastIndexOf('agent.speaking'));
  });

  it('a stream stopped with a reason (a browser user ended it) ends the call with it, without a hang-up', async () => {
    call = new CallHarness({ agent: { intro_message: 'Hello.' } }).start();
    await call.until(() => call!.commands('mark').length > 0, 'the intro');
    call.hangUp('caller_ended');
    const done = await call.done();
    expect(done.endCallReason).toBe('caller_ended');
    expect(call.reporter.hangups).toEqual([]);
  });

  it('a carrier stream stopped without a reason still ends with none', async () => {
    call = new CallHarness({ agent: { intro_message: 'Hello.' } }).start();
    await call.until(() => call!.commands('mark').length > 0, 'the intro');
    call.hangUp();
    expect((await call.done()).endCallReason).toBeNull();
  });
});
