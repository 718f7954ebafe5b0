import type { KnowledgeSearchHit } from '@vap/messages';
import type { ChatDelta } from '@vap/llm';
import { Phrases } from './phrases';
import { CallHarness } from './testing/conversation-harness';

const toolCall = (name: string, args: Record<string, unknown> = {}, id = `call-${name}`): ChatDelta => ({
  type: 'tool_call',
  call: { id, name, arguments: args },
});

const result = (content: string, score: number, extra: Partial<KnowledgeSearchHit> = {}) =>
  ({
    chunk_id: `chunk-${score}`,
    document_id: 'doc-1',
    document_name: 'Refund policy',
    chunk_index: 0,
    content,
    score,
    summary: 'How refunds work.',
    formatted: content,
    ...extra,
  }) satisfies KnowledgeSearchHit;

describe('conversation: tools', () => {
  let call: CallHarness | undefined;
  afterEach(async () => {
    await call?.close();
    call = undefined;
  });

  it('end_call: the agent says the end-call message and hangs up with agent_ended_call', async () => {
    call = new CallHarness({
      agent: { endCallMessage: 'Goodbye from {{company}}.' },
      sttTexts: ['That is all, thanks.'],
      model: [{ deltas: [{ type: 'text', text: 'Glad I could help.' }, toolCall('end_call')] }],
    }).start();
    call.say(400);
    const done = await call.done();
    expect(done.endCallReason).toBe('agent_ended_call');
    expect(call.reporter.hangups).toEqual(['agent_ended_call']);
    expect(call.reporter.lines.map((l) => [l.role, l.content])).toEqual([
      ['user', 'That is all, thanks.'],
      ['bot', 'Glad I could help. Goodbye from Acme.'],
    ]);
    // The goodbye was played before the hang-up.
    expect(call.commands('mark')).toHaveLength(2);
    // Recorded before the conversation settled: the calls service has it before the stream's end report.
    expect(call.reporter.toolCalls).toEqual([
      expect.objectContaining({ name: 'end_call', kind: 'builtin', outcome: 'success' }),
    ]);
  });

  it('offers no end_call tool when end_call is disabled, and the right tools for the agent', async () => {
    call = new CallHarness({
      agent: {
        endCallEnabled: false,
        transferEnabled: true,
        transferNumber: '+15559990000',
        hasKnowledge: true,
      },
      sttTexts: ['Hello?'],
    }).start();
    call.say(300);
    await call.until(() => call!.model.requests.length === 1, 'a model request');
    expect(call.model.requests[0].tools.map((t) => t.name)).toEqual([
      'transfer_call',
      'search_knowledge_base',
      'opt_out',
    ]);
    expect(call.model.requests[0].messages[0].content).toContain('transfer_call');
    expect(call.model.requests[0].messages[0].content).not.toContain('end_call');
  });

  it('opt_out: the number joins the do-not-call list, the agent says goodbye and hangs up with opted_out', async () => {
    call = new CallHarness({
      agent: { endCallEnabled: false },
      sttTexts: ['Please do not call me again.'],
      model: [{ deltas: [toolCall('opt_out')] }],
    }).start();
    call.say(400);
    const done = await call.done();
    expect(done.endCallReason).toBe('opted_out');
    expect(call.reporter.optOuts).toBe(1);
    expect(call.reporter.hangups).toEqual(['opted_out']);
    expect(call.reporter.toolCalls).toEqual([
      expect.objectContaining({ name: 'opt_out', outcome: 'success' }),
    ]);
    expect(call.reporter.lines.map((l) => [l.role, l.content])).toEqual([
      ['user', 'Please do not call me again.'],
      ['bot', Phrases.optOutFarewell],
    ]);
    expect(call.model.requests[0].messages[0].content).toContain('opt_out');
  });

  it('opt_out that the calls service cannot record still ends the call politely, saying so', async () => {
    call = new CallHarness({
      sttTexts: ['Take me off your list.'],
      model: [{ deltas: [toolCall('opt_out')] }],
    });
    call.reporter.optOutError = new Error('no responders');
    call.start();
    call.say(400);
    const done = await call.done();
    expect(done.endCallReason).toBe('opted_out');
    expect(call.reporter.lines.at(-1)).toMatchObject({ role: 'bot', content: Phrases.optOutFailed });
    expect(call.reporter.toolCalls).toEqual([
      expect.objectContaining({ name: 'opt_out', outcome: 'failed' }),
    ]);
  });

  it('transfer_call: says the transfer message, transfers, and ends as transferred', async () => {
    call = new CallHarness({
      agent: {
        transferEnabled: true,
        transferNumber: '+15559990000',
        transferMessage: 'Connecting you to billing.',
      },
      sttTexts: ['I want a human.'],
      model: [{ deltas: [toolCall('transfer_call', { reason: 'wants a person' })] }],
    }).start();
    call.say(400);
    const done = await call.done();
    expect(done.endCallReason).toBe('transferred');
    expect(call.reporter.transfers).toEqual([{ to: '+15559990000', reason: 'wants a person' }]);
    expect(call.reporter.hangups).toEqual([]);
    expect(call.reporter.toolCalls).toEqual([
      expect.objectContaining({
        name: 'transfer_call',
        arguments: { reason: 'wants a person' },
        outcome: 'success',
      }),
    ]);
    expect(call.reporter.lines.map((l) => l.content)).toEqual([
      'I want a human.',
      'Connecting you to billing.',
    ]);
  });

  it("transfer_call's session entry is timed when the model called it, not when the transfer finished", async () => {
    call = new CallHarness({
      agent: {
        transferEnabled: true,
        transferNumber: '+15559990000',
        transferMessage: 'Connecting you to billing.',
      },
      sttTexts: ['I want a human.'],
      model: [{ deltas: [toolCall('transfer_call', { reason: 'wants a person' })] }],
    });
    // The carrier takes a while to connect the transfer.
    call.reporter.toolDelayMs = 600;
    const harness = call;
    const asked: number[] = [];
    const transfer = harness.reporter.transfer.bind(harness.reporter);
    harness.reporter.transfer = (to, reason) => {
      asked.push(harness.mediaNow);
      return transfer(to, reason);
    };
    harness.start();
    harness.say(400);
    const done = await harness.done();
    expect(done.endCallReason).toBe('transferred');
    const [entry] = harness.reporter.toolCalls;
    expect(entry).toMatchObject({ name: 'transfer_call', outcome: 'success' });
    // Before the transfer was even asked (the transfer message is said first), let alone connected.
    expect(asked).toHaveLength(1);
    expect(entry.atMs).toBeLessThanOrEqual(asked[0]);
  });

  it('transfer_call refused: the agent says it could not transfer and the conversation goes on', async () => {
    call = new CallHarness({
      agent: { transferEnabled: true, transferNumber: '+15559990000' },
      sttTexts: ['I want a human.', 'Fine, what are your hours?'],
      model: [{ deltas: [toolCall('transfer_call')] }, { deltas: [{ type: 'text', text: 'Nine to five.' }] }],
    });
    call.reporter.transferResult = false;
    call.start();
    call.say(400);
    await call.until(() => call!.reporter.lines.length === 3, 'the failure line');
    expect(call.reporter.lines.map((l) => l.content)).toEqual([
      'I want a human.',
      'Please hold while I transfer your call.',
      "I'm sorry, I couldn't transfer your call right now. How else can I help?",
    ]);
    call.say(400);
    await call.until(() => call!.reporter.lines.length === 5, 'the next turn');
    expect(call.reporter.lines[4].content).toBe('Nine to five.');
    const messages = call.model.requests[1].messages;
    expect(messages).toContainEqual({
      role: 'tool',
      tool_call_id: 'call-transfer_call',
      content: 'The transfer failed; the caller is still on the line.',
    });
    expect(call.result).toBeNull();
    // A well-formed history: the tool result directly follows the tool call, then what the caller was told.
    const at = messages.findIndex((m) => m.role === 'assistant' && m.tool_calls?.length);
    expect(messages.slice(at + 1, at + 3)).toEqual([
      expect.objectContaining({ role: 'tool', tool_call_id: 'call-transfer_call' }),
      {
        role: 'assistant',
        content: "I'm sorry, I couldn't transfer your call right now. How else can I help?",
      },
    ]);
  });

  it('search_knowledge_base: results under kb_threshold are dropped and kb_result_format renders the rest', async () => {
    call = new CallHarness({
      agent: {
        hasKnowledge: true,
        kbThreshold: 'high',
        kbIncludeSummaries: true,
        kbResultFormat: '#{rank} {document_name} ({score}): {content} [{summary}] {{literal}}',
      },
      sttTexts: ['How long do refunds take?'],
      model: [
        { deltas: [toolCall('search_knowledge_base', { query: 'refund time' })] },
        { deltas: [{ type: 'text', text: 'Refunds take five days.' }] },
      ],
    });
    call.reporter.knowledge = {
      ...call.reporter.knowledge,
      results: [result('Refunds take 5 days.', 0.81), result('Shipping is free.', 0.5)],
    };
    call.start();
    call.say(400);
    await call.until(() => call!.reporter.lines.length === 2, 'the answer');
    expect(call.reporter.searches).toEqual([{ query: 'refund time', limit: 5 }]);
    const toolMessage = call.model.requests[1].messages.find((m) => m.role === 'tool');
    expect(toolMessage).toEqual({
      role: 'tool',
      tool_call_id: 'call-search_knowledge_base',
      content: '#1 Refund policy (0.810): Refunds take 5 days. [How refunds work.] {literal}',
    });
    expect(call.reporter.lines[1].content).toBe('Refunds take five days.');
    expect(call.reporter.lines[1].latency).toBeDefined();
  });

  it('tool_ack_config static: a slow tool gets one of the phrases after delay_ms', async () => {
    call = new CallHarness({
      agent: {
        hasKnowledge: true,
        toolAckConfig: { enabled: true, mode: 'static', phrases: ['Bear with me.'], delayMs: 500 },
      },
      sttTexts: ['Refunds?'],
      model: [
        { deltas: [toolCall('search_knowledge_base', { query: 'refunds' })] },
        { deltas: [{ type: 'text', text: 'Five days.' }] },
      ],
    });
    call.reporter.toolDelayMs = 2000 / call.timeScale; // 2 s of media time, well past the 500 ms delay
    call.start();
    call.say(400);
    await call.until(() => call!.reporter.lines.length === 2, 'the answer');
    expect(call.reporter.lines[1].content).toBe('Bear with me. Five days.');
  });

  it('tool_ack_config dynamic: a phrase that fits the tool', async () => {
    call = new CallHarness({
      agent: {
        hasKnowledge: true,
        toolAckConfig: { enabled: true, mode: 'dynamic', phrases: [], delayMs: 200 },
      },
      sttTexts: ['Refunds?'],
      model: [
        { deltas: [toolCall('search_knowledge_base', { query: 'refunds' })] },
        { deltas: [{ type: 'text', text: 'Five days.' }] },
      ],
    });
    call.reporter.toolDelayMs = 1000 / call.timeScale;
    call.start();
    call.say(400);
    await call.until(() => call!.reporter.lines.length === 2, 'the answer');
    expect(call.reporter.lines[1].content).toBe('Let me look that up. Five days.');
  });

  it.each([
    ['null', null],
    ['disabled', { enabled: false, mode: 'static' as const, phrases: ['Hold on.'], delayMs: 0 }],
  ])('tool_ack_config %s: nothing is said while the tool runs', async (_, config) => {
    call = new CallHarness({
      agent: { hasKnowledge: true, toolAckConfig: config },
      sttTexts: ['Refunds?'],
      model: [
        { deltas: [toolCall('search_knowledge_base', { query: 'refunds' })] },
        { deltas: [{ type: 'text', text: 'Five days.' }] },
      ],
    });
    call.reporter.toolDelayMs = 1000 / call.timeScale;
    call.start();
    call.say(400);
    await call.until(() => call!.reporter.lines.length === 2, 'the answer');
    expect(call.reporter.lines[1].content).toBe('Five days.');
  });

  it('a fast tool gets no acknowledgement', async () => {
    call = new CallHarness({
      agent: {
        hasKnowledge: true,
        toolAckConfig: { enabled: true, mode: 'static', phrases: ['Bear with me.'], delayMs: 1000 },
      },
      sttTexts: ['Refunds?'],
      model: [
        { deltas: [toolCall('search_knowledge_base', { query: 'refunds' })] },
        { deltas: [{ type: 'text', text: 'Five days.' }] },
      ],
    }).start();
    call.say(400);
    await call.until(() => call!.reporter.lines.length === 2, 'the answer');
    expect(call.reporter.lines[1].content).toBe('Five days.');
  });

  it('records each built-in tool invocation on the session: name, arguments, outcome', async () => {
    call = new CallHarness({
      agent: { hasKnowledge: true, transferEnabled: true, transferNumber: '+15559990000' },
      sttTexts: ['Refunds?', 'Get me a human.'],
      model: [
        { deltas: [toolCall('search_knowledge_base', { query: 'refunds' })] },
        { deltas: [{ type: 'text', text: 'Five days.' }] },
        { deltas: [toolCall('transfer_call', { reason: 'asked' })] },
      ],
    });
    call.reporter.transferResult = false;
    call.start();
    call.say(400);
    await call.until(() => call!.reporter.lines.length === 2, 'the answer');
    call.say(400);
    await call.until(() => call!.reporter.toolCalls.length === 2, 'the records');
    expect(call.reporter.toolCalls).toEqual([
      expect.objectContaining({
        name: 'search_knowledge_base',
        kind: 'builtin',
        functionId: null,
        arguments: { query: 'refunds' },
        outcome: 'success',
        logId: null,
      }),
      expect.objectContaining({ name: 'transfer_call', arguments: { reason: 'asked' }, outcome: 'failed' }),
    ]);
    expect(call.reporter.toolCalls[0].atMs).toBeLessThan(call.reporter.toolCalls[1].atMs);
  });
});
