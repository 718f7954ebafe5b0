import {
  AppError,
  CALL_VARIABLES_MAX_BYTES,
  CUSTOM_FUNCTION_CALLS_PER_CALL,
  CUSTOM_FUNCTION_CALLS_PER_TURN,
  type CustomFunctionSnapshot,
} from '@vap/messages';
import { OfflineChatModel, type ChatDelta, type ChatMessage } from '@vap/llm';
import { ManualClock } from '@vap/runtime';
import { CallHarness, type HarnessOptions } from './testing/conversation-harness';

const toolCall = (name: string, args: Record<string, unknown> = {}, id = `call-${name}`): ChatDelta => ({
  type: 'tool_call',
  call: { id, name, arguments: args },
});
const text = (t: string): ChatDelta => ({ type: 'text', text: t });

/** A call on a ManualClock, which the harness moves as fast as the call keeps up: no real waits. */
const onClock = (options: HarnessOptions) => new CallHarness({ ...options, clock: new ManualClock() });

/** Every assistant message's tool calls are followed at once by one result each, as providers require. */
function expectWellFormed(messages: ChatMessage[]): void {
  messages.forEach((m, i) => {
    if (m.role !== 'assistant' || !m.tool_calls?.length) return;
    const results = messages.slice(i + 1, i + 1 + m.tool_calls.length);
    expect(results.map((r) => (r.role === 'tool' ? r.tool_call_id : r.role))).toEqual(
      m.tool_calls.map((c) => c.id),
    );
  });
}

function fn(overrides: Partial<CustomFunctionSnapshot> = {}): CustomFunctionSnapshot {
  return {
    id: 'fn-1',
    name: 'check_order',
    description: 'Look up an order by its number.',
    parameters: {
      type: 'object',
      properties: { order_number: { type: 'string' } },
      required: ['order_number'],
    },
    timeoutMs: 10_000,
    speech: { onStart: null, onDelay: null, delayMs: 2000, onFailure: null },
    async: false,
    ...overrides,
  };
}

describe('conversation: partner functions', () => {
  let call: CallHarness | undefined;
  afterEach(async () => {
    await call?.close();
    call = undefined;
  });

  it('offers each function after the built-in tools, as its spec says', async () => {
    call = onClock({
      agent: { customFunctions: [fn(), fn({ id: 'fn-2', name: 'end_call', description: 'clash' })] },
      sttTexts: ['Hello?'],
    }).start();
    call.say(300);
    await call.until(() => call!.model.requests.length === 1, 'a model request');
    const tools = call.model.requests[0].tools;
    // A function named like a built-in tool never replaces it.
    expect(tools.map((t) => t.name)).toEqual(['end_call', 'opt_out', 'check_order']);
    expect(tools[2]).toEqual({
      name: 'check_order',
      description: 'Look up an order by its number.',
      parameters: fn().parameters,
    });
  });

  it('success: on_start is said as the request leaves, the answer goes to the model, variables reach the prompt and later calls, the invocation is recorded', async () => {
    call = onClock({
      agent: {
        prompt: 'You help {{first_name}} with order {{order_status}}.',
        customFunctions: [
          fn({ speech: { onStart: 'Let me check.', onDelay: null, delayMs: 0, onFailure: null } }),
        ],
      },
      variables: { first_name: 'Ada' },
      sttTexts: ['Where is order 42?', 'And again?'],
      model: [
        { deltas: [toolCall('check_order', { order_number: '42' })] },
        { deltas: [text('It has shipped.')] },
        { deltas: [toolCall('check_order', { order_number: '42' }, 'second')] },
        { deltas: [text('Still shipped.')] },
      ],
    });
    call.reporter.functionReplies = [
      { reply: { result: '{"status":"shipped"}', variables: { order_status: 'shipped' }, logId: 'log-a' } },
    ];
    call.start();
    call.say(400);
    await call.until(() => call!.reporter.lines.length === 3, 'the answer');
    // on_start is a line of its own, before the reply's.
    expect(call.reporter.lines.slice(1).map((l) => l.content)).toEqual(['Let me check.', 'It has shipped.']);
    expect(call.reporter.lines[2].atMs).toBeGreaterThan(call.reporter.lines[1].atMs);
    expect(call.reporter.invocations[0]).toEqual({
      functionId: 'fn-1',
      arguments: { order_number: '42' },
      variables: { first_name: 'Ada' },
    });
    const second = call.model.requests[1].messages;
    expect(second).toContainEqual({
      role: 'tool',
      tool_call_id: 'call-check_order',
      content: '{"status":"shipped"}\n(Call variables now set: order_status.)',
    });
    // The system prompt is rendered again with the variable the function set.
    expect(second[0].content).toContain('You help Ada with order shipped.');
    await call.until(() => call!.reporter.toolCalls.length === 1, 'the record');
    expect(call.reporter.toolCalls[0]).toMatchObject({
      name: 'check_order',
      kind: 'custom',
      functionId: 'fn-1',
      arguments: { order_number: '42' },
      outcome: 'success',
      logId: 'log-a',
      variables: { order_status: 'shipped' },
    });
    call.say(400);
    await call.until(() => call!.reporter.invocations.length === 2, 'the second call');
    // Later calls carry what earlier ones set.
    expect(call.reporter.invocations[1].variables).toEqual({ first_name: 'Ada', order_status: 'shipped' });
  });

  it(`variables that would take the call's past ${CALL_VARIABLES_MAX_BYTES} bytes are not merged, and the model is not told they were`, async () => {
    call = onClock({
      agent: { prompt: 'Notes: {{notes}}.', customFunctions: [fn()] },
      sttTexts: ['Where is order 42?'],
      model: [{ deltas: [toolCall('check_order', { order_number: '42' })] }, { deltas: [text('Shipped.')] }],
    });
    call.reporter.functionReplies = [
      { reply: { result: 'ok', variables: { notes: 'x'.repeat(CALL_VARIABLES_MAX_BYTES) } } },
    ];
    call.start();
    call.say(400);
    await call.until(() => call!.reporter.lines.length === 2, 'the answer');
    const messages = call.model.requests[1].messages;
    expect(messages[0].content).toContain('Notes: {{notes}}.');
    expect(messages.find((m) => m.role === 'tool')?.content).toBe('ok');
    // Recorded as answered: the calls service applies the same bound.
    await call.until(() => call!.reporter.toolCalls.length === 1, 'the record');
    expect(call.reporter.toolCalls[0].variables).toHaveProperty('notes');
  });

  it('a failure tells the model why, with the body of a non-2xx answer, and speaks on_failure', async () => {
    call = onClock({
      agent: {
        customFunctions: [
          fn({ speech: { onStart: null, onDelay: null, delayMs: 0, onFailure: 'Our system is down.' } }),
        ],
      },
      sttTexts: ['Where is order 42?'],
      model: [
        { deltas: [toolCall('check_order', { order_number: '42' })] },
        { deltas: [text('Anything else?')] },
      ],
    });
    call.reporter.functionReplies = [
      { reply: { outcome: 'http_error', status: 503, result: 'busy', error: 'the partner answered 503' } },
    ];
    call.start();
    call.say(400);
    await call.until(() => call!.reporter.lines.length === 3, 'the answer');
    expect(call.reporter.lines.slice(1).map((l) => l.content)).toEqual([
      'Our system is down.',
      'Anything else?',
    ]);
    expect(call.model.requests[1].messages).toContainEqual({
      role: 'tool',
      tool_call_id: 'call-check_order',
      content:
        'The function failed (the partner answered 503). The caller has been told: "Our system is down."' +
        "\nThe server's answer:\nbusy",
    });
    await call.until(() => call!.reporter.toolCalls.length === 1, 'the record');
    expect(call.reporter.toolCalls[0]).toMatchObject({ outcome: 'http_error', logId: 'log-1' });
  });

  it('a failure without on_failure leaves the wording to the model', async () => {
    call = onClock({
      agent: { customFunctions: [fn()] },
      sttTexts: ['Where is order 42?'],
      model: [
        { deltas: [toolCall('check_order', { order_number: '42' })] },
        { deltas: [text('Sorry, I could not check that.')] },
      ],
    });
    call.reporter.functionReplies = [
      { reply: { outcome: 'timeout', status: null, result: '', error: null, logId: 'log-t' } },
    ];
    call.start();
    call.say(400);
    await call.until(() => call!.reporter.lines.length === 2, 'the answer');
    expect(call.reporter.lines[1].content).toBe('Sorry, I could not check that.');
    expect(call.model.requests[1].messages.find((m) => m.role === 'tool')).toMatchObject({
      content: 'The function failed (timeout). Tell the caller briefly that it did not work.',
    });
  });

  it('invalid arguments: nothing is said, the model is told what to fix and may try again', async () => {
    call = onClock({
      agent: { customFunctions: [fn()] },
      sttTexts: ['Where is my order?'],
      model: [
        { deltas: [toolCall('check_order', {})] },
        { deltas: [toolCall('check_order', { order_number: '7' }, 'retry')] },
        { deltas: [text('Order seven is on its way.')] },
      ],
    });
    call.reporter.functionReplies = [
      {
        reply: {
          outcome: 'invalid_arguments',
          status: null,
          result: '',
          error: 'order_number is required',
          logId: null,
        },
      },
    ];
    call.start();
    call.say(400);
    await call.until(() => call!.reporter.lines.length === 2, 'the answer');
    expect(call.reporter.lines[1].content).toBe('Order seven is on its way.');
    expect(call.reporter.invocations.map((i) => i.arguments)).toEqual([{}, { order_number: '7' }]);
    expect(call.model.requests[1].messages.find((m) => m.role === 'tool')?.content).toMatch(
      /^The arguments were not valid, so nothing was sent: order_number is required\. Fix them and call check_order again/,
    );
    await call.until(() => call!.reporter.toolCalls.length === 2, 'the records');
    expect(call.reporter.toolCalls.map((t) => t.outcome)).toEqual(['invalid_arguments', 'success']);
  });

  it(`at most ${CUSTOM_FUNCTION_CALLS_PER_TURN} function calls per turn: beyond, the model is told the limit was reached`, async () => {
    const calls = Array.from({ length: CUSTOM_FUNCTION_CALLS_PER_TURN + 1 }, (_, i) =>
      toolCall('check_order', { order_number: String(i) }, `c${i}`),
    );
    call = onClock({
      agent: { customFunctions: [fn()] },
      sttTexts: ['Check all my orders.'],
      model: [{ deltas: calls }, { deltas: [text('Here they are.')] }],
    }).start();
    call.say(400);
    await call.until(() => call!.reporter.lines.length === 2, 'the answer');
    expect(call.reporter.invocations).toHaveLength(CUSTOM_FUNCTION_CALLS_PER_TURN);
    const last = call.model.requests[1].messages.find(
      (m) => m.role === 'tool' && m.tool_call_id === `c${CUSTOM_FUNCTION_CALLS_PER_TURN}`,
    );
    expect(last?.content).toMatch(/limit of 4 function calls in one turn was reached/);
    await call.until(() => call!.reporter.toolCalls.length === CUSTOM_FUNCTION_CALLS_PER_TURN + 1, 'records');
    expect(call.reporter.toolCalls.at(-1)).toMatchObject({ outcome: 'limit_reached', logId: null });
  });

  it('on_delay is said once when the request runs past delay_ms', async () => {
    call = onClock({
      agent: {
        customFunctions: [
          fn({ speech: { onStart: null, onDelay: 'Still checking.', delayMs: 500, onFailure: null } }),
        ],
      },
      sttTexts: ['Where is order 42?'],
      model: [{ deltas: [toolCall('check_order', { order_number: '42' })] }, { deltas: [text('Shipped.')] }],
    });
    call.reporter.functionReplies = [{ reply: {}, delayMs: 2000 / call.timeScale }];
    call.start();
    call.say(400);
    await call.until(() => call!.reporter.lines.length === 3, 'the answer');
    expect(call.reporter.lines.slice(1).map((l) => l.content)).toEqual(['Still checking.', 'Shipped.']);
  });

  it('on_start, on_delay and on_failure are each a transcript line of their own, stamped when they were said', async () => {
    call = onClock({
      agent: {
        customFunctions: [
          fn({
            timeoutMs: 2000,
            speech: {
              onStart: 'Let me check.',
              onDelay: 'Still checking.',
              delayMs: 500,
              onFailure: 'The order system did not answer.',
            },
          }),
        ],
      },
      sttTexts: ['Where is order 42?'],
      model: [
        { deltas: [text('One moment.'), toolCall('check_order', { order_number: '42' })] },
        { deltas: [text('Anything else?')] },
      ],
    });
    call.reporter.functionReplies = [
      {
        reply: { outcome: 'timeout', status: null, result: '', error: 'no answer within 2000 ms' },
        delayMs: 2000 / call.timeScale,
      },
    ];
    call.start();
    call.say(400);
    await call.until(() => call!.reporter.lines.length === 6, 'every line');
    const said = call.reporter.lines.slice(1);
    expect(said.map((l) => [l.role, l.content])).toEqual([
      ['bot', 'One moment.'],
      ['bot', 'Let me check.'],
      ['bot', 'Still checking.'],
      ['bot', 'The order system did not answer.'],
      ['bot', 'Anything else?'],
    ]);
    for (let i = 1; i < said.length; i++) expect(said[i].atMs).toBeGreaterThan(said[i - 1].atMs);
    await call.until(() => call!.reporter.toolCalls.length === 1, 'the record');
    const startedAt = call.reporter.toolCalls[0].atMs;
    // on_delay after delay_ms of the request, on_failure once its timeout_ms had run out.
    expect(said[1].atMs).toBeGreaterThanOrEqual(startedAt);
    expect(said[2].atMs).toBeGreaterThanOrEqual(startedAt + 500);
    expect(said[3].atMs).toBeGreaterThanOrEqual(startedAt + 2000);
  });

  it('a fast request says no on_delay', async () => {
    call = onClock({
      agent: {
        customFunctions: [
          fn({ speech: { onStart: null, onDelay: 'Still checking.', delayMs: 3000, onFailure: null } }),
        ],
      },
      sttTexts: ['Where is order 42?'],
      model: [{ deltas: [toolCall('check_order', { order_number: '42' })] }, { deltas: [text('Shipped.')] }],
    }).start();
    call.say(400);
    await call.until(() => call!.reporter.lines.length === 2, 'the answer');
    expect(call.reporter.lines[1].content).toBe('Shipped.');
  });

  it('async: the agent talks on, and speaks about the answer when it comes and the agent is idle', async () => {
    call = onClock({
      agent: { customFunctions: [fn({ async: true })] },
      sttTexts: ['Book me a table.'],
      model: [
        { deltas: [toolCall('check_order', { order_number: '9' })] },
        { deltas: [text('I have asked; anything else meanwhile?')] },
        { deltas: [text('Your table is booked.')] },
      ],
    });
    call.reporter.functionReplies = [
      { reply: { result: '{"booked":true}', variables: { table: 'T4' } }, delayMs: 3000 / call.timeScale },
    ];
    call.start();
    call.say(400);
    await call.until(() => call!.reporter.lines.length === 2, 'the first answer');
    expect(call.reporter.lines[1].content).toBe('I have asked; anything else meanwhile?');
    expect(call.model.requests[1].messages.find((m) => m.role === 'tool')?.content).toMatch(
      /The request to check_order is running/,
    );
    // No caller turn: the answer alone brings the agent's next round.
    await call.until(() => call!.reporter.lines.length === 3, 'the late answer', 8000);
    expect(call.reporter.lines[2].content).toBe('Your table is booked.');
    expect(call.reporter.lines[2].latency).toBeUndefined();
    const third = call.model.requests[2].messages;
    expect(third.slice(-2)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call-check_order-answer', name: 'check_order', arguments: { order_number: '9' } },
        ],
      },
      {
        role: 'tool',
        tool_call_id: 'call-check_order-answer',
        content: '{"booked":true}\n(Call variables now set: table.)',
      },
    ]);
    expect(call.reporter.toolCalls).toEqual([
      expect.objectContaining({ name: 'check_order', outcome: 'success', variables: { table: 'T4' } }),
    ]);
    for (const request of call.model.requests) expectWellFormed(request.messages);
  });

  it('the call ending gives up a request still running', async () => {
    call = onClock({
      agent: { customFunctions: [fn()] },
      sttTexts: ['Where is order 42?'],
      model: [{ deltas: [toolCall('check_order', { order_number: '42' })] }],
    });
    call.reporter.functionReplies = [{ reply: {}, delayMs: 60_000 }];
    call.start();
    call.say(400);
    await call.until(() => call!.reporter.invocations.length === 1, 'the request');
    const started = call.clock!.monotonicMs();
    call.hangUp();
    await call.done();
    // The 60 s request did not hold the call open.
    expect(call.clock!.monotonicMs() - started).toBeLessThan(2000);
    // The session still lists it, as cancelled.
    expect(call.reporter.toolCalls).toEqual([
      expect.objectContaining({ name: 'check_order', outcome: 'cancelled', logId: null }),
    ]);
  });

  it('async failure with on_failure: the line is said when the answer comes, and the model is told, without a round of its own', async () => {
    call = onClock({
      agent: {
        customFunctions: [
          fn({
            async: true,
            speech: {
              onStart: null,
              onDelay: null,
              delayMs: 0,
              onFailure: 'The booking system is down.',
            },
          }),
        ],
      },
      sttTexts: ['Book me a table.', 'Okay.'],
      model: [
        { deltas: [toolCall('check_order', { order_number: '9' })] },
        { deltas: [text('I have asked.')] },
        { deltas: [text('Sorry about that.')] },
      ],
    });
    call.reporter.functionReplies = [
      {
        reply: { outcome: 'refused', status: null, result: '', error: 'private address' },
        delayMs: 1000 / call.timeScale,
      },
    ];
    call.start();
    call.say(400);
    await call.until(() => call!.reporter.lines.length === 3, 'the failure line', 8000);
    expect(call.reporter.lines[2].content).toBe('The booking system is down.');
    // No model round for it: only the caller's next turn asks the model again.
    expect(call.model.requests).toHaveLength(2);
    call.say(400);
    await call.until(() => call!.model.requests.length === 3, 'the next turn');
    const messages = call.model.requests[2].messages;
    expect(messages).toContainEqual({
      role: 'tool',
      tool_call_id: 'call-check_order-answer',
      content:
        'The function failed (private address). The caller has been told: "The booking system is down."',
    });
    expect(call.reporter.toolCalls).toEqual([expect.objectContaining({ outcome: 'refused' })]);
  });

  it('async failure with on_failure: the model is told at the caller’s next turn even when its words end at a pause (no early reply without it)', async () => {
    call = onClock({
      agent: {
        customFunctions: [
          fn({
            async: true,
            speech: {
              onStart: null,
              onDelay: null,
              delayMs: 0,
              onFailure: 'The booking system is down.',
            },
          }),
        ],
      },
      sttTexts: ['Book me a table.', 'What time do you open?'],
      model: [
        { deltas: [toolCall('check_order', { order_number: '9' })] },
        { deltas: [text('I have asked.')] },
        { deltas: [text('At nine.')] },
      ],
    });
    call.reporter.functionReplies = [
      {
        reply: { outcome: 'http_error', status: 500, result: '', error: 'the server answered HTTP 500' },
        delayMs: 1000 / call.timeScale,
      },
    ];
    // The first turn ends without a pause; the second's words look finished at a pause, where an early reply
    // would start.
    call.stt.partials.push(null, { afterFrames: 10, text: 'What time do you open?' });
    call.start();
    call.say(400);
    await call.until(() => call!.reporter.lines.length === 3, 'the failure line', 8000);
    expect(call.reporter.lines[2].content).toBe('The booking system is down.');
    call.say(400);
    await call.until(() => call!.reporter.lines.length === 5, 'the answer to the next turn', 8000);
    expect(call.reporter.lines[4].content).toBe('At nine.');
    // The request that answered the caller knew of the failure, and what the caller was told.
    const answered = call.model.requests.at(-1)!.messages;
    expect(answered).toContainEqual({
      role: 'tool',
      tool_call_id: 'call-check_order-answer',
      content:
        'The function failed (the server answered HTTP 500). The caller has been told: "The booking system is down."',
    });
    expectWellFormed(answered);
    expect(call.model.requests).toHaveLength(3);
  });

  it('async answer while the agent is answering: it joins the next model round, never between a tool call and its result', async () => {
    call = onClock({
      agent: { hasKnowledge: true, customFunctions: [fn({ async: true })] },
      sttTexts: ['Book a table and tell me the refund policy.'],
      model: [
        { deltas: [toolCall('check_order', { order_number: '9' })] },
        { deltas: [toolCall('search_knowledge_base', { query: 'refunds' })] },
        { deltas: [text('Refunds take five days, and your table is booked.')] },
      ],
    });
    // The answer comes while the knowledge search (slower) still runs.
    call.reporter.functionReplies = [{ reply: { result: 'booked' }, delayMs: 100 }];
    call.reporter.toolDelayMs = 800;
    call.start();
    call.say(400);
    await call.until(() => call!.reporter.lines.length === 2, 'the answer');
    const messages = call.model.requests[2].messages;
    const search = messages.findIndex(
      (m) => m.role === 'assistant' && m.tool_calls?.[0]?.name === 'search_knowledge_base',
    );
    expect(messages[search + 1]).toMatchObject({ role: 'tool', tool_call_id: 'call-search_knowledge_base' });
    expect(messages.slice(search + 2)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [expect.objectContaining({ id: 'call-check_order-answer' })],
      },
      { role: 'tool', tool_call_id: 'call-check_order-answer', content: 'booked' },
    ]);
    // Spoken in that round: no round of its own afterwards.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(call.model.requests).toHaveLength(3);
  });

  it(`at most ${CUSTOM_FUNCTION_CALLS_PER_CALL} function calls per call`, async () => {
    const turns = Math.ceil(CUSTOM_FUNCTION_CALLS_PER_CALL / CUSTOM_FUNCTION_CALLS_PER_TURN) + 1;
    const model = Array.from({ length: turns }, (_, t) => [
      {
        deltas: Array.from({ length: CUSTOM_FUNCTION_CALLS_PER_TURN }, (_, i) =>
          toolCall('check_order', { order_number: String(i) }, `t${t}c${i}`),
        ),
      },
      { deltas: [text('Done.')] },
    ]).flat();
    call = onClock({
      agent: { customFunctions: [fn()] },
      sttTexts: Array.from({ length: turns }, () => 'Check my orders.'),
      model,
    }).start();
    for (let t = 0; t < turns; t++) {
      call.say(400);
      await call.until(() => call!.reporter.lines.length === 2 * (t + 1), `turn ${t}`);
    }
    expect(call.reporter.invocations).toHaveLength(CUSTOM_FUNCTION_CALLS_PER_CALL);
    const results = call.model.requests
      .at(-1)!
      .messages.filter((m) => m.role === 'tool')
      .slice(-CUSTOM_FUNCTION_CALLS_PER_TURN);
    expect(results.map((m) => m.content)).toEqual(
      Array(CUSTOM_FUNCTION_CALLS_PER_TURN).fill(
        `Not run: the limit of ${CUSTOM_FUNCTION_CALLS_PER_CALL} function calls on this call was reached. Carry on without it.`,
      ),
    );
  });

  it('with the offline engine: the caller names the function, its arguments come from the line, the answer is spoken', async () => {
    call = onClock({
      agent: { customFunctions: [fn()] },
      sttTexts: ['Please check order, order number is 42.'],
      llm: new OfflineChatModel(),
    });
    call.reporter.functionReplies = [{ reply: { result: '{"order_status":"shipped"}' } }];
    call.start();
    call.say(400);
    await call.until(() => call!.reporter.lines.length === 2, 'the answer');
    expect(call.reporter.invocations[0]).toMatchObject({
      functionId: 'fn-1',
      arguments: { order_number: '42' },
    });
    expect(call.reporter.lines[1].content).toBe('Done. order status shipped.');
  });
});

describe('conversation: partner functions when the agents service fails', () => {
  let call: CallHarness | undefined;
  afterEach(async () => {
    await call?.close();
    call = undefined;
  });

  it.each([
    [
      AppError.notFound('Custom function'),
      'not_found',
      'The function failed (the function no longer exists).',
    ],
    [
      AppError.validation([{ field: 'order_number', message: 'must be a string' }]),
      'invalid_arguments',
      'The arguments were not valid, so nothing was sent: order_number: must be a string.',
    ],
    [AppError.downstream(), 'timeout', 'The function failed (the function did not answer in time).'],
  ] as const)('%s: recorded as %s, the model told', async (error, outcome, told) => {
    call = onClock({
      agent: { customFunctions: [fn()] },
      sttTexts: ['Where is order 42?'],
      model: [{ deltas: [toolCall('check_order', { order_number: 42 })] }, { deltas: [text('Sorry.')] }],
    });
    call.reporter.functionError = error;
    call.start();
    call.say(400);
    await call.until(() => call!.reporter.lines.length === 2, 'the answer');
    expect(call.model.requests[1].messages.find((m) => m.role === 'tool')?.content).toContain(told);
    await call.until(() => call!.reporter.toolCalls.length === 1, 'the record');
    expect(call.reporter.toolCalls[0]).toMatchObject({ outcome, logId: null });
  });
});

describe('conversation: a partner function the caller talks over', () => {
  let call: CallHarness | undefined;
  afterEach(async () => {
    await call?.close();
    call = undefined;
  });

  it('keeps its answer in the history, says nothing of it, and runs nothing more of that turn', async () => {
    call = onClock({
      agent: { customFunctions: [fn(), fn({ id: 'fn-2', name: 'cancel_order' })] },
      sttTexts: ['Where is order 42?', 'Actually, never mind.', 'Thanks.'],
      model: [
        {
          deltas: [
            toolCall('check_order', { order_number: '42' }),
            toolCall('cancel_order', { order_number: '42' }),
          ],
        },
        { deltas: [text('Okay.')] },
        { deltas: [text('You are welcome.')] },
      ],
    });
    // Long enough for the caller's next words to be heard and transcribed while it runs.
    call.reporter.functionReplies = [{ reply: { result: 'shipped' }, delayMs: 500 }];
    call.start();
    call.say(400);
    await call.until(() => call!.reporter.invocations.length === 1, 'the request');
    call.say(400);
    await call.until(() => call!.reporter.lines.length === 3, 'the next answer');
    await call.until(() => call!.reporter.toolCalls.length === 1, 'the record');
    call.say(400);
    await call.until(() => call!.reporter.lines.length === 5, 'the last answer');
    expect(call.reporter.lines.map((l) => l.content)).toEqual([
      'Where is order 42?',
      'Actually, never mind.',
      'Okay.',
      'Thanks.',
      'You are welcome.',
    ]);
    // The second function of the interrupted turn never ran; the first one's answer is in the history.
    expect(call.reporter.invocations).toHaveLength(1);
    expect(call.reporter.toolCalls).toEqual([
      expect.objectContaining({ name: 'check_order', outcome: 'success' }),
    ]);
    // The caller's words came while the function ran: its call was closed in the history before them, and its
    // answer joined later as its own call and result.
    const interrupted = 'Interrupted: the caller spoke before it finished.';
    expect(call.model.requests[1].messages.slice(-4)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call-check_order', name: 'check_order', arguments: { order_number: '42' } },
          { id: 'call-cancel_order', name: 'cancel_order', arguments: { order_number: '42' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call-check_order', content: interrupted },
      { role: 'tool', tool_call_id: 'call-cancel_order', content: interrupted },
      { role: 'user', content: 'Actually, never mind.' },
    ]);
    const last = call.model.requests[2].messages;
    expect(last.filter((m) => m.role === 'tool').map((m) => [m.tool_call_id, m.content])).toEqual([
      ['call-check_order', interrupted],
      ['call-cancel_order', interrupted],
      ['call-check_order-answer', 'shipped'],
    ]);
    for (const request of call.model.requests) expectWellFormed(request.messages);
  });
});
