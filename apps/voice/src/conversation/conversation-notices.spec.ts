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
      agent: { introMessage: 'Hello from {{company}}.', endCallMessage: 'Goodbye.' },
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
      { type: 'tool', name: 'end_call', status: 'running', arguments: {} },
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
      agent: { hasKnowledge: true },
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
      {
        type: 'tool',
        name: 'search_knowledge_base',
        status: 'running',
        arguments: { query: 'refund time' },
      },
      {
        type: 'tool',
        name: 'search_knowledge_base',
        status: 'done',
        outcome: 'success',
        latency_ms: expect.any(Number),
      },
    ]);
    // The outcome and latency are the ones the call's tool calls record.
    expect(call.reporter.toolCalls).toEqual([
      expect.objectContaining({ name: 'search_knowledge_base', outcome: 'success' }),
    ]);
    expect((tools[1] as { latency_ms: number }).latency_ms).toBe(call.reporter.toolCalls[0].latencyMs);
    // Done before the answer it fed is spoken.
    const order = call.notices.map((n) => (n.type === 'tool' ? n.status : n.type));
    expect(order.indexOf('done')).toBeLessThan(order.lastIndexOf('agent.speaking'));
  });

  it('shows arguments too large to record as cut, and a tool given up under a barge-in as cancelled', async () => {
    call = new CallHarness({
      agent: { hasKnowledge: true },
      sttTexts: ['Tell me everything.'],
      model: [{ deltas: [toolCall('search_knowledge_base', { query: 'x'.repeat(5000) })] }],
    }).start();
    call.say(400);
    await call.until(() => call!.notices.some((n) => n.type === 'tool'), 'the tool running');
    expect(call.notices.find((n) => n.type === 'tool')).toEqual({
      type: 'tool',
      name: 'search_knowledge_base',
      status: 'running',
      arguments: {},
      arguments_truncated: true,
    });
  });

  it("takes a typed line as the caller's final words: in the transcript as the user's, and the agent's turn", async () => {
    call = new CallHarness({
      agent: { introMessage: 'Hello.' },
      model: [{ deltas: [{ type: 'text', text: 'Your order ships today.' }] }],
    }).start();
    await call.until(
      () => call!.notices.some((n) => n.type === 'transcript' && n.role === 'agent'),
      'the intro line',
    );
    call.conversation.onEvent({ type: 'text', text: 'Where is my order?' });
    await call.until(
      () => call!.notices.some((n) => n.type === 'transcript' && n.text === 'Your order ships today.'),
      'the answer',
    );
    const finals = call.notices.filter((n) => n.type === 'transcript' && n.final);
    expect(finals).toEqual([
      { type: 'transcript', role: 'agent', text: 'Hello.', final: true },
      { type: 'transcript', role: 'user', text: 'Where is my order?', final: true, typed: true },
      { type: 'transcript', role: 'agent', text: 'Your order ships today.', final: true },
    ]);
    // The model was asked with the typed words as the user's turn; the calls service got the line as spoken lines.
    expect(call.model.requests[0].messages.at(-1)).toEqual({ role: 'user', content: 'Where is my order?' });
    expect(call.reporter.lines.map((l) => [l.role, l.content])).toEqual([
      ['bot', 'Hello.'],
      ['user', 'Where is my order?'],
      ['bot', 'Your order ships today.'],
    ]);
  });

  it('a typed line interrupts the agent as barge-in does', async () => {
    call = new CallHarness({
      agent: { introMessage: 'This is a long introduction that goes on and on for quite a while indeed.' },
      model: [{ deltas: [{ type: 'text', text: 'Sure.' }] }],
    }).start();
    await call.until(() => call!.commands('sendAudio').length > 5, 'the intro playing');
    call.conversation.onEvent({ type: 'text', text: 'Stop, please.' });
    await call.until(() => call!.commands('clear').length > 0, 'the clear');
    await call.until(
      () => call!.notices.some((n) => n.type === 'transcript' && n.text === 'Sure.'),
      'the answer',
    );
    // The intro was cut: whatever of it was heard is reported as interrupted, never as said in full.
    const intro = call.reporter.lines.filter((l) => l.role === 'bot' && l.content !== 'Sure.');
    expect(intro.every((l) => l.interrupted === true)).toBe(true);
    expect(call.reporter.lines.filter((l) => l.role === 'user').map((l) => l.content)).toEqual([
      'Stop, please.',
    ]);
  });

  it('a stream stopped with a reason (a browser user ended it) ends the call with it, without a hang-up', async () => {
    call = new CallHarness({ agent: { introMessage: 'Hello.' } }).start();
    await call.until(() => call!.commands('mark').length > 0, 'the intro');
    call.hangUp('caller_ended');
    const done = await call.done();
    expect(done.endCallReason).toBe('caller_ended');
    expect(call.reporter.hangups).toEqual([]);
  });

  it('a carrier stream stopped without a reason still ends with none', async () => {
    call = new CallHarness({ agent: { introMessage: 'Hello.' } }).start();
    await call.until(() => call!.commands('mark').length > 0, 'the intro');
    call.hangUp();
    expect((await call.done()).endCallReason).toBeNull();
  });
});
