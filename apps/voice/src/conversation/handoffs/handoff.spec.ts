import { HANDOFF_LIMITS, type HandoffSnapshot } from '@vap/messages';
import type { ChatDelta } from '@vap/llm';
import { HANDOFF_BOUND_RESULT } from '../call-control/call-control';
import { CallHarness } from '../testing/conversation-harness';
import { SUMMARY_PREFIX } from './handoff-context';

const handoffCall = (reason = 'billing question', summary?: string): ChatDelta => ({
  type: 'tool_call',
  call: {
    id: 'call-handoff',
    name: 'handoff_to_billing',
    arguments: summary === undefined ? { reason } : { reason, summary },
  },
});

const billingHandoff = (over: Partial<HandoffSnapshot> = {}): HandoffSnapshot => ({
  name: 'billing',
  description: 'The caller asks about a bill.',
  agentId: 'agent-billing',
  contextMode: 'full',
  lastTurns: null,
  variables: null,
  ...over,
});

describe('conversation: handoffs between agents', () => {
  let call: CallHarness | undefined;
  afterEach(async () => {
    await call?.close();
    call = undefined;
  });

  /** `summaryInCall`: in summary mode, the model writes the summary in its handoff call (else in a round of its own). */
  function squad(handoff = billingHandoff(), billingIntro: string | null = null, summaryInCall = false) {
    const asksForSummary = handoff.contextMode === 'summary' && !summaryInCall;
    call = new CallHarness({
      agent: { prompt: 'You are reception at {{company}}.', handoffs: [handoff] },
      variables: { company: 'Acme', account: 'A-7' },
      sttTexts: ['My bill is wrong.'],
      model: [
        {
          deltas: [
            { type: 'text', text: 'Let me pass you to billing.' },
            handoffCall('billing question', summaryInCall ? '  Caller A-7 disputes a bill.  ' : undefined),
          ],
        },
        // The summary round, when the mode asks for one and the handoff call had none.
        ...(asksForSummary
          ? [{ deltas: [{ type: 'text' as const, text: 'Caller says the bill is wrong.' }] }]
          : []),
        { deltas: [{ type: 'text', text: 'Billing here: which invoice is it?' }] },
      ],
    });
    call.reporter.agents.set('agent-billing', {
      name: 'Billing',
      agent: {
        prompt: 'You are billing at {{company}}, account {{account}}.',
        introMessage: billingIntro,
        endCallEnabled: false,
      },
    });
    return call.start();
  }

  it('offers a tool per destination, and the next agent answers with its prompt and tools on the whole conversation', async () => {
    const c = squad();
    c.say(400);
    await c.until(() => c.model.requests.length === 2, 'the next agent to answer', 8000);
    const [first, next] = c.model.requests;
    expect(first.tools.map((t) => t.name)).toEqual(['end_call', 'opt_out', 'handoff_to_billing']);
    expect(first.tools.find((t) => t.name === 'handoff_to_billing')!.description).toContain(
      'The caller asks about a bill.',
    );
    expect(c.reporter.handoffs).toEqual([{ agentId: 'agent-billing', reason: 'billing question' }]);
    // The next agent: its own prompt (with the call's variables), its own tools, the conversation as it was said.
    expect(next.messages[0]).toEqual({
      role: 'system',
      content: expect.stringContaining('You are billing at Acme, account A-7.'),
    });
    expect(next.messages.slice(1)).toEqual([
      { role: 'user', content: 'My bill is wrong.' },
      { role: 'assistant', content: 'Let me pass you to billing.' },
    ]);
    expect(next.tools.map((t) => t.name)).toEqual(['opt_out']);
    await c.until(
      () => c.reporter.lines.some((l) => l.content === 'Billing here: which invoice is it?'),
      'the reply',
    );
    expect(c.reporter.toolCalls).toEqual([
      expect.objectContaining({ name: 'handoff_to_billing', kind: 'handoff', outcome: 'success' }),
    ]);
  });

  it('asks for the summary in the handoff call itself: no model round of its own', async () => {
    const c = squad(billingHandoff({ contextMode: 'summary' }), null, true);
    c.say(400);
    await c.until(() => c.model.requests.length === 2, 'the next agent to answer', 8000);
    const [first, next] = c.model.requests;
    const tool = first.tools.find((t) => t.name === 'handoff_to_billing')!;
    expect(tool.parameters).toMatchObject({
      properties: { summary: { type: 'string' } },
      required: ['summary'],
    });
    expect(next.messages.slice(1)).toEqual([
      { role: 'system', content: `${SUMMARY_PREFIX}Caller A-7 disputes a bill.` },
    ]);
    await c.until(
      () => c.reporter.lines.some((l) => l.content === 'Billing here: which invoice is it?'),
      'the reply',
    );
    expect(c.model.requests).toHaveLength(2);
  });

  it('asks for the summary in a round of its own when the handoff call had none, and passes only the variables named', async () => {
    const c = squad(billingHandoff({ contextMode: 'summary', variables: ['company'] }));
    c.say(400);
    await c.until(() => c.model.requests.length === 3, 'the next agent to answer', 8000);
    const [, summary, next] = c.model.requests;
    expect(summary.tools).toEqual([]);
    expect(summary.messages[1]).toEqual({
      role: 'user',
      content: 'Caller: My bill is wrong.\nAgent: Let me pass you to billing.',
    });
    expect(next.messages.slice(1)).toEqual([
      { role: 'system', content: `${SUMMARY_PREFIX}Caller says the bill is wrong.` },
    ]);
    // {{account}} did not pass: the prompt keeps its placeholder's fallback.
    expect(next.messages[0].content).not.toContain('A-7');
    expect(next.messages[0].content).toContain('You are billing at Acme');
  });

  it('opens with the next agent’s intro when it has one, and keeps the agent when the handoff is refused', async () => {
    const c = squad(billingHandoff({ contextMode: 'last_turns', lastTurns: 1 }), 'Billing desk, hello.');
    c.say(400);
    await c.until(
      () => c.reporter.lines.some((l) => l.content === 'Billing desk, hello.'),
      'the intro',
      8000,
    );
    expect(c.model.requests).toHaveLength(1);
    await c.close();

    call = new CallHarness({
      agent: { prompt: 'You are reception.', handoffs: [billingHandoff({ agentId: 'agent-gone' })] },
      sttTexts: ['My bill is wrong.'],
      model: [{ deltas: [handoffCall()] }, { deltas: [{ type: 'text', text: 'I will help you myself.' }] }],
    }).start();
    call.say(400);
    await call.until(() => call!.model.requests.length === 2, 'the tool result', 8000);
    const messages = call.model.requests[1].messages;
    expect(messages[0].content).toContain('You are reception.');
    expect(messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'call-handoff',
      content: 'The handover failed. Carry on with the caller yourself.',
    });
  });

  it('tells the model the bound on handoffs was reached, not only that the handover failed', async () => {
    call = new CallHarness({
      agent: { prompt: 'You are reception.', handoffs: [billingHandoff()] },
      sttTexts: ['My bill is wrong.'],
      model: [{ deltas: [handoffCall()] }, { deltas: [{ type: 'text', text: 'I will help you myself.' }] }],
    });
    call.reporter.handoffBoundReached = true;
    call.start();
    call.say(400);
    await call.until(() => call!.model.requests.length === 2, 'the tool result', 8000);
    expect(call.model.requests[1].messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'call-handoff',
      content: HANDOFF_BOUND_RESULT,
    });
    expect(HANDOFF_BOUND_RESULT).toContain(`handed over ${HANDOFF_LIMITS.perCall} times`);
    expect(call.reporter.toolCalls).toEqual([
      expect.objectContaining({ name: 'handoff_to_billing', kind: 'handoff', outcome: 'failed' }),
    ]);
  });
});
