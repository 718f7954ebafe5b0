// A partner's function called by the language model on a carrier_b call into the voice service: the sandbox
// carrier's phone speaks the caller's lines, the scripted model calls the function, and the agents service (which
// checks the arguments against the schema, sends the partner's request and applies timeout_ms) is a fake peer
// answering agents.custom_function.invoke as the real one does. What the voice service does around the call is
// tested: what the model is told, a retry after a refusal, response_variables in the next prompt, async answers
// joining the conversation, the function's speech lines, the per-turn limit, the call's timeout and a hang-up.
// The request itself, its schema check and its log entry are the agents service's specs and the e2e's.
import { randomUUID } from 'node:crypto';
import {
  AppError,
  CUSTOM_FUNCTION_DEFAULT_DELAY_MS,
  CUSTOM_FUNCTION_DEFAULT_TIMEOUT_MS,
  CustomFunctionInvokeReply,
  CustomFunctionInvokeRequest,
  CustomFunctionSnapshot,
  Subjects,
  VoiceToolCallRequest,
  VoiceTranscriptRequest,
} from '@vap/messages';
import { ChatCompletionRequest, ChatScript, lastUserText } from '@vap/llm/testing';
import { waitFor } from '@vap/testing';
import { IntegrationApp } from '@vap/testing/integration';
import type { VoiceConfig } from '../../config/voice.config';
import { CarrierCall, CarrierCalls, PhoneRun } from '../../testing/carrier-calls';
import { useVoiceWithScriptedModel } from '../../testing/voice-integration';

const INTRO = 'Hello, this is Maya from Acme.';
const ORDER = { status: 'shipped', eta: 'Friday' };
const CALL_VARIABLES = { customer_name: 'Asha' };
// Media at eight times real time, as the turn-taking spec runs it; lines are waited for as the voice service reports
// them played.
const TIME_SCALE = 8;
const ENV = {
  MEDIA_TIME_SCALE: String(TIME_SCALE),
  DRAIN_DEADLINE_MS: '1000',
  PROVIDER_ALLOW_PRIVATE_NETWORKS: 'true',
};

/** The caller's lines the script knows. */
const ASK_IN_WORDS = 'Where is order forty two?';
const ASK = 'Where is my order 42?';
const ASIDE = 'What time do you open?';
const ASK_FIVE = 'Check my orders one to five.';
/** The agent's lines the script says. */
const PENDING_REPLY = 'I have asked the order system.';
const ASIDE_REPLY = 'We open at nine.';
const ANSWERED = 'Your order is shipped and arrives Friday.';
const LIMIT_REPLY = 'I can check four orders at a time.';
const FAILED_REPLY = 'That did not work.';
/** Asked when the function's static on_failure has told the caller: the model then only moves on. */
const ASK_SPOKEN = 'Is order 42 on its way?';
const MOVE_ON = 'Anything else I can do?';

const lastMessage = (request: ChatCompletionRequest) => request.messages[request.messages.length - 1];
const systemPrompt = (request: ChatCompletionRequest) =>
  request.messages.find((m) => m.role === 'system')?.content ?? '';

/**
 * The model: asks check_order for an order the caller names (first with the number as words, which the schema
 * refuses, then as the integer), speaks what the function answered, and answers an aside.
 */
const script: ChatScript = (request) => {
  // Each test's function has a name of its own: check_order_<test>.
  const fn = request.tools.find((t) => t.function.name.startsWith('check_order'))?.function.name;
  const last = lastMessage(request);
  if (last?.role === 'tool' && lastUserText(request) === ASK_SPOKEN) return { text: MOVE_ON };
  // A failure the caller has already been told of (a static on_failure) needs no words: the caller's come first.
  if (last?.role === 'tool' && !/The caller has been told/.test(last.content ?? '')) {
    const result = last.content ?? '';
    if (fn && result.startsWith('The arguments were not valid'))
      return { toolCalls: [{ name: fn, arguments: { order_number: 42 } }] };
    if (/^The request to check_order\w* is running/.test(result)) return { text: PENDING_REPLY };
    if (result.startsWith('Not run: the limit')) return { text: LIMIT_REPLY };
    const answer = /^\{.*\}/.exec(result)?.[0];
    if (answer) {
      const order = JSON.parse(answer) as typeof ORDER;
      return { text: `Your order is ${order.status} and arrives ${order.eta}.` };
    }
    return { text: FAILED_REPLY };
  }
  const said = lastUserText(request);
  if (said === ASK_IN_WORDS && fn)
    return { toolCalls: [{ name: fn, arguments: { order_number: 'forty two' } }] };
  if ((said === ASK || said === ASK_SPOKEN) && fn)
    return { toolCalls: [{ name: fn, arguments: { order_number: 42 } }] };
  if (said === ASK_FIVE && fn)
    return { toolCalls: [1, 2, 3, 4, 5].map((n) => ({ name: fn, arguments: { order_number: n } })) };
  if (said === ASIDE) return { text: ASIDE_REPLY };
  return { text: `You said ${said.replace(/[.?!]+$/, '')}.` };
};

/** What the partner's server answers a function's request: after `delayMs`, or once the test lets it (`held`). */
interface PartnerAnswer {
  status: number;
  body: string;
  delayMs?: number;
  held?: boolean;
}

/**
 * The agents service as the voice service meets it on agents.custom_function.invoke: it refuses arguments that
 * break check_order's schema (nothing sent), else "sends" the request to a partner answering as `partner()` said,
 * gives up at the request's timeoutMs, and answers with the body, the status and the response_variables
 * (order_status: $.status, eta: $.eta), with the words the real service uses (its runner's and request client's
 * specs).
 */
class FakeAgents {
  private readonly partners = new Map<string, PartnerAnswer>();
  private readonly waits = new Map<() => void, string>();
  private readonly replies: { functionId: string; reply: CustomFunctionInvokeReply }[] = [];

  constructor(private readonly voiceApp: IntegrationApp<VoiceConfig>) {
    voiceApp.peers.answer(Subjects.agents.customFunctionInvoke, (request) => this.invoke(request));
  }

  /** The partner's server of `fn` answers `answer`. */
  partner(fn: CustomFunctionSnapshot, answer: PartnerAnswer): void {
    this.partners.set(fn.id, answer);
  }

  /** The invocations the voice service asked for `fn`, in order. */
  invokes(fn: CustomFunctionSnapshot): CustomFunctionInvokeRequest[] {
    return this.voiceApp.peers.received
      .filter((r) => r.subject === Subjects.agents.customFunctionInvoke)
      .map((r) => r.data as CustomFunctionInvokeRequest)
      .filter((r) => r.functionId === fn.id);
  }

  /** What it answered the invocations of `fn`, in the order answered. */
  answers(fn: CustomFunctionSnapshot): CustomFunctionInvokeReply[] {
    return this.replies.filter((r) => r.functionId === fn.id).map((r) => r.reply);
  }

  /** The partner of `fn` (default: every partner) answers now. */
  release(fn?: CustomFunctionSnapshot): void {
    for (const [done, functionId] of [...this.waits]) if (!fn || functionId === fn.id) done();
  }

  private async invoke(request: CustomFunctionInvokeRequest): Promise<CustomFunctionInvokeReply> {
    const reply = await this.answer(request);
    this.replies.push({ functionId: request.functionId, reply });
    return reply;
  }

  private async answer(request: CustomFunctionInvokeRequest): Promise<CustomFunctionInvokeReply> {
    const answer = this.partners.get(request.functionId);
    if (!answer) throw AppError.notFound('Custom function');
    const args = request.arguments as Record<string, unknown>;
    if (!Number.isInteger(args.order_number)) {
      return {
        outcome: 'invalid_arguments',
        status: null,
        latencyMs: 0,
        result: '',
        error: 'order_number must be integer',
        variables: {},
        logId: null,
      };
    }
    const delayMs = answer.held ? Infinity : (answer.delayMs ?? 0);
    const started = performance.now();
    const released = await this.sleep(request.functionId, Math.min(delayMs, request.timeoutMs));
    const sent = { latencyMs: Math.round(performance.now() - started), logId: randomUUID() };
    if (delayMs > request.timeoutMs && !released) {
      return {
        ...sent,
        outcome: 'timeout',
        status: null,
        result: '',
        error: `no answer within ${request.timeoutMs} ms`,
        variables: {},
      };
    }
    if (answer.status >= 300) {
      return {
        ...sent,
        outcome: 'http_error',
        status: answer.status,
        result: answer.body,
        error: `the server answered HTTP ${answer.status}`,
        variables: {},
      };
    }
    const order = JSON.parse(answer.body) as typeof ORDER;
    return {
      ...sent,
      outcome: 'success',
      status: answer.status,
      result: answer.body,
      error: null,
      variables: { order_status: order.status, eta: order.eta },
    };
  }

  /** Waits `ms`; true when release() ended the wait first. */
  private sleep(functionId: string, ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const done = (released: boolean) => {
        clearTimeout(timer);
        this.waits.delete(release);
        resolve(released);
      };
      const release = () => done(true);
      const timer = setTimeout(() => done(false), ms);
      this.waits.set(release, functionId);
    });
  }
}

/** check_order as a call's snapshot holds it, named check_order_<label> (the script's choice of tool). */
function checkOrder(label: string, over: Partial<CustomFunctionSnapshot> = {}): CustomFunctionSnapshot {
  return {
    id: randomUUID(),
    name: `check_order_${label}`,
    description: 'Looks up where an order is by its number',
    parameters: {
      type: 'object',
      properties: { order_number: { type: 'integer', minimum: 1 } },
      required: ['order_number'],
      additionalProperties: false,
    },
    timeoutMs: CUSTOM_FUNCTION_DEFAULT_TIMEOUT_MS,
    speech: { onStart: null, onDelay: null, delayMs: CUSTOM_FUNCTION_DEFAULT_DELAY_MS, onFailure: null },
    async: false,
    ...over,
  };
}

type Line = VoiceTranscriptRequest;

describe('custom functions called by the model on a carrier_b call', () => {
  let calls: CarrierCalls;
  let agents: FakeAgents;
  const { voice, model } = useVoiceWithScriptedModel(script, ENV);

  beforeAll(() => {
    calls = new CarrierCalls(voice);
    agents = new FakeAgents(voice);
  });

  afterAll(() => agents?.release());

  /** A call to an agent (its prompt names the test) with `fn` attached; returns once its intro has played. */
  async function dial(
    fn: CustomFunctionSnapshot,
    prompt: string,
  ): Promise<{ call: CarrierCall; run: PhoneRun }> {
    const call = calls.call(
      { prompt, introMessage: INTRO, customFunctions: [fn] },
      { variables: { ...CALL_VARIABLES } },
    );
    const run = calls.dial(call);
    await calls.played(call, INTRO);
    return { call, run };
  }

  /** The call's transcript lines in the order said. */
  const transcript = (call: CarrierCall): Line[] =>
    calls.transcript(call.callId).sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
  const botLines = (call: CarrierCall) => transcript(call).filter((l) => l.role === 'bot');

  /** The call's tool invocations in the order reported, once `count` have been. */
  const toolCalls = (call: CarrierCall, count: number): Promise<VoiceToolCallRequest[]> =>
    waitFor(
      () => {
        const sent = calls.toolCalls(call.callId).sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
        return sent.length >= count ? sent : undefined;
      },
      { description: `${count} tool calls reported` },
    );

  /** The model's requests, under the test's own prompt (`prompt` names it), that followed the caller's `callLine`. */
  const chatsAfter = (callLine: string, prompt: string) =>
    model().chats.filter(
      (c) =>
        systemPrompt(c).includes(prompt) &&
        c.messages.some((m) => m.role === 'user' && m.content === callLine),
    );

  it('a refused argument is never sent as valid: the model is told, calls again with valid ones, and the answer is spoken', async () => {
    const fn = checkOrder('invalid_first');
    agents.partner(fn, { status: 200, body: JSON.stringify(ORDER) });
    const { call, run } = await dial(fn, 'You are Maya from Acme, invalid-arguments test.');
    await run.phone.say(ASK_IN_WORDS);
    await calls.played(call, ANSWERED);
    const recorded = await toolCalls(call, 2);
    await calls.hangUp(call, run);

    // The model was offered the function as its spec says.
    const [asked] = chatsAfter(ASK_IN_WORDS, 'invalid-arguments test');
    expect(asked.tools.find((t) => t.function.name === fn.name)?.function).toEqual({
      name: fn.name,
      description: fn.description,
      parameters: fn.parameters,
    });
    // Both calls went to the agents service, for this call, with the call's variables and its timeout; it refused
    // the first (which the partner never gets: the agents service's spec).
    const invokes = agents.invokes(fn);
    expect(invokes.map((r) => r.arguments)).toEqual([{ order_number: 'forty two' }, { order_number: 42 }]);
    for (const invoke of invokes) {
      expect(invoke).toEqual({
        partnerId: call.context.partnerId,
        functionId: fn.id,
        arguments: expect.anything(),
        context: {
          callId: call.callId,
          browserSessionId: null,
          agentId: call.context.agentId,
          direction: 'outbound',
          fromNumber: call.context.fromNumber,
          toNumber: call.context.toNumber,
          variables: CALL_VARIABLES,
          customerId: null,
        },
        timeoutMs: fn.timeoutMs,
      });
    }

    // The model was told what to fix, then got the answer.
    const told = chatsAfter(ASK_IN_WORDS, 'invalid-arguments test')
      .map((c) => lastMessage(c))
      .filter((m) => m.role === 'tool');
    expect(told).toHaveLength(2);
    expect(told[0].content).toMatch(/^The arguments were not valid, so nothing was sent: .*order_number/);
    expect(told[0].content).toContain(`call ${fn.name} again`);
    // The answer as the partner sent it, and a note of the variables it set (in no particular order).
    const [answer, note] = (told[1].content ?? '').split('\n');
    expect(answer).toBe(JSON.stringify(ORDER));
    expect(note).toMatch(/^\(Call variables now set: (order_status, eta|eta, order_status)\.\)$/);
    // Nothing was said to the caller about the refused arguments (lines are reported as they have played).
    expect(botLines(call).map((l) => l.content)).toEqual([INTRO, ANSWERED]);

    expect(recorded).toEqual([
      expect.objectContaining({
        name: fn.name,
        kind: 'custom',
        functionId: fn.id,
        arguments: { order_number: 'forty two' },
        outcome: 'invalid_arguments',
        logId: null,
      }),
      expect.objectContaining({
        name: fn.name,
        kind: 'custom',
        functionId: fn.id,
        arguments: { order_number: 42 },
        outcome: 'success',
        logId: expect.any(String),
        variables: { order_status: 'shipped', eta: 'Friday' },
      }),
    ]);
    // A refusal sets no variables; the success's log entry is the one the agents service named.
    expect(recorded[0].variables).toBeUndefined();
    expect(recorded[1].logId).toBe(agents.answers(fn)[1].logId);
    expect(calls.toolCalls(call.callId)).toHaveLength(2);
  });

  it('response_variables reach the prompt the model is given from its next round on', async () => {
    const fn = checkOrder('prompt_vars');
    agents.partner(fn, { status: 200, body: JSON.stringify(ORDER) });
    const { call, run } = await dial(
      fn,
      'You are Maya from Acme, variables test. The order is {{order_status}}, due {{eta}}.',
    );
    await run.phone.say(ASK);
    await calls.played(call, ANSWERED);
    await run.phone.say(ASIDE);
    await calls.played(call, ASIDE_REPLY);
    const recorded = await toolCalls(call, 1);
    await calls.hangUp(call, run);

    const chats = chatsAfter(ASK, 'variables test');
    // The round that called the function read the placeholders unset; every later round reads the values.
    expect(chats.length).toBeGreaterThanOrEqual(3);
    const [asked, ...later] = chats;
    expect(lastMessage(asked)).toMatchObject({ role: 'user', content: ASK });
    expect(systemPrompt(asked)).toContain('The order is {{order_status}}, due {{eta}}.');
    for (const chat of later) expect(systemPrompt(chat)).toContain('The order is shipped, due Friday.');
    expect(later.some((c) => lastMessage(c).role === 'user' && lastMessage(c).content === ASIDE)).toBe(true);
    // The calls service merges what the invocation set into the call's variables (its record-tool-call spec).
    expect(recorded).toEqual([
      expect.objectContaining({ outcome: 'success', variables: { order_status: 'shipped', eta: 'Friday' } }),
    ]);
  });

  it('async: the conversation goes on while the partner works, and the answer is spoken when it comes', async () => {
    const fn = checkOrder('async_order', { async: true, timeoutMs: 15_000 });
    // The partner answers once the caller has had a whole exchange with the agent meanwhile.
    agents.partner(fn, { status: 200, body: JSON.stringify(ORDER), held: true });
    const { call, run } = await dial(fn, 'You are Maya from Acme, async test.');
    await run.phone.say(ASK);
    await calls.played(call, PENDING_REPLY);
    const invokedAt = performance.now();
    await run.phone.say(ASIDE);
    await calls.played(call, ASIDE_REPLY);
    // The aside was answered while the partner had not answered yet.
    expect(agents.invokes(fn)).toHaveLength(1);
    expect(calls.toolCalls(call.callId)).toEqual([]);
    expect(botLines(call).map((l) => l.content)).not.toContain(ANSWERED);
    // The answer comes, and the agent speaks about it by itself.
    const heldFor = Math.floor(performance.now() - invokedAt);
    agents.release(fn);
    await calls.played(call, ANSWERED);
    const recorded = await toolCalls(call, 1);
    await calls.hangUp(call, run);

    expect(botLines(call).map((l) => l.content)).toEqual([INTRO, PENDING_REPLY, ASIDE_REPLY, ANSWERED]);
    // The answer joined the history as the function's own call and result, after the aside.
    const spoke = model().chats.find(
      (c) =>
        systemPrompt(c).includes('async test') && lastMessage(c).content?.startsWith(JSON.stringify(ORDER)),
    )!;
    expect(spoke).toBeDefined();
    const history = spoke.messages.slice(-2);
    expect(history[0]).toMatchObject({ role: 'assistant' });
    expect(history[0].tool_calls?.map((t) => [t.function.name, JSON.parse(t.function.arguments)])).toEqual([
      [fn.name, { order_number: 42 }],
    ]);
    expect(history[1]).toMatchObject({ role: 'tool', tool_call_id: history[0].tool_calls?.[0].id });
    const asideAt = spoke.messages.findIndex((m) => m.role === 'user' && m.content === ASIDE);
    expect(asideAt).toBeGreaterThan(0);
    expect(asideAt).toBeLessThan(spoke.messages.length - 2);

    expect(recorded).toEqual([
      expect.objectContaining({
        name: fn.name,
        functionId: fn.id,
        outcome: 'success',
        logId: expect.any(String),
        variables: { order_status: 'shipped', eta: 'Friday' },
      }),
    ]);
    // The wait as the agents service measured it.
    expect(recorded[0].latencyMs).toBe(agents.answers(fn)[0].latencyMs);
    expect(recorded[0].latencyMs).toBeGreaterThanOrEqual(heldFor);
  });

  it('a failure with no on_failure text: the model is told why, with the answer’s body, and words it', async () => {
    const boom = JSON.stringify({ error: `boom-${randomUUID().slice(0, 8)}` });
    const fn = checkOrder('failing');
    agents.partner(fn, { status: 500, body: boom });
    const { call, run } = await dial(fn, 'You are Maya from Acme, failure test.');
    await run.phone.say(ASK);
    await calls.played(call, FAILED_REPLY);
    const recorded = await toolCalls(call, 1);
    await calls.hangUp(call, run);

    const told = chatsAfter(ASK, 'failure test')
      .map((c) => lastMessage(c))
      .filter((m) => m.role === 'tool');
    expect(told.map((m) => m.content)).toEqual([
      'The function failed (the server answered HTTP 500). Tell the caller briefly that it did not work.' +
        `\nThe server's answer:\n${boom}`,
    ]);
    // Nothing but the model's own words was said.
    expect(botLines(call).map((l) => l.content)).toEqual([INTRO, FAILED_REPLY]);
    expect(recorded).toEqual([
      expect.objectContaining({ functionId: fn.id, outcome: 'http_error', logId: expect.any(String) }),
    ]);
    expect(recorded[0].variables).toBeUndefined();
  });

  it('the caller hanging up while the partner works: the wait stops and the invocation is cancelled', async () => {
    const PARTNER_MS = 8000;
    const fn = checkOrder('hung_up', { timeoutMs: 20_000 });
    agents.partner(fn, { status: 200, body: JSON.stringify(ORDER), delayMs: PARTNER_MS });
    const { call, run } = await dial(fn, 'You are Maya from Acme, hang-up test.');
    await run.phone.say(ASK);
    await waitFor(() => agents.invokes(fn).length === 1, {
      timeoutMs: 10_000,
      description: 'the invocation to reach the agents service',
    });
    const hungUpAt = Date.now();
    await calls.hangUp(call, run);
    const recorded = await toolCalls(call, 1);
    // The call finished, its invocation recorded, without waiting for the partner's answer.
    expect(Date.now() - hungUpAt).toBeLessThan(PARTNER_MS);
    agents.release();
    expect(recorded).toEqual([
      expect.objectContaining({
        functionId: fn.id,
        arguments: { order_number: 42 },
        outcome: 'cancelled',
        logId: null,
      }),
    ]);
    // Nothing was set.
    expect(recorded[0].variables).toBeUndefined();
    expect(calls.toolCalls(call.callId)).toHaveLength(1);
  });

  it('runs at most 4 function calls in one turn: the fifth is not sent, the model is told the limit', async () => {
    const fn = checkOrder('five_orders');
    agents.partner(fn, { status: 200, body: JSON.stringify(ORDER) });
    const { call, run } = await dial(fn, 'You are Maya from Acme, limit test.');
    await run.phone.say(ASK_FIVE);
    await calls.played(call, LIMIT_REPLY);
    const recorded = await toolCalls(call, 5);
    await calls.hangUp(call, run);

    const invokes = agents.invokes(fn);
    expect(invokes.map((r) => (r.arguments as { order_number: number }).order_number)).toEqual([1, 2, 3, 4]);
    // Each request carries the variables the ones before it set.
    expect(invokes.map((r) => r.context.variables)).toEqual([
      { customer_name: 'Asha' },
      { customer_name: 'Asha', order_status: 'shipped', eta: 'Friday' },
      { customer_name: 'Asha', order_status: 'shipped', eta: 'Friday' },
      { customer_name: 'Asha', order_status: 'shipped', eta: 'Friday' },
    ]);
    const answered = chatsAfter(ASK_FIVE, 'limit test').find((c) => lastMessage(c).role === 'tool')!;
    expect(answered).toBeDefined();
    const results = answered.messages.slice(-5);
    expect(results.map((m) => m.role)).toEqual(['tool', 'tool', 'tool', 'tool', 'tool']);
    expect(results[4].content).toBe(
      'Not run: the limit of 4 function calls in one turn was reached. Answer the caller now.',
    );
    expect(
      recorded.map((t) => [
        t.name,
        (t.arguments as { order_number: number }).order_number,
        t.outcome,
        t.logId === null,
      ]),
    ).toEqual([
      [fn.name, 1, 'success', false],
      [fn.name, 2, 'success', false],
      [fn.name, 3, 'success', false],
      [fn.name, 4, 'success', false],
      [fn.name, 5, 'limit_reached', true],
    ]);
  });

  it('async with a static on_failure: the line is said when the failure comes, and the model’s next round knows of it', async () => {
    const ON_FAILURE = 'Sorry, the order system did not answer.';
    const fn = checkOrder('async_failing', {
      async: true,
      speech: {
        onStart: null,
        onDelay: null,
        delayMs: CUSTOM_FUNCTION_DEFAULT_DELAY_MS,
        onFailure: ON_FAILURE,
      },
    });
    // The partner's failure comes once the agent has said it is waiting.
    agents.partner(fn, { status: 500, body: '{"error":"database down"}', held: true });
    const { call, run } = await dial(fn, 'You are Maya from Acme, async failure test.');
    await run.phone.say(ASK);
    await calls.played(call, PENDING_REPLY);
    agents.release(fn);
    await calls.played(call, ON_FAILURE);
    // The caller goes on; the model's history holds the failure as the function's result, the caller told.
    await run.phone.say(ASIDE);
    await calls.played(call, ASIDE_REPLY);
    const recorded = await toolCalls(call, 1);
    await calls.hangUp(call, run);

    expect(botLines(call).map((l) => l.content)).toEqual([INTRO, PENDING_REPLY, ON_FAILURE, ASIDE_REPLY]);
    // The model's next round, the caller's aside, knew of the failure and what the caller was told.
    const asides = chatsAfter(ASIDE, 'async failure test');
    expect(asides).toHaveLength(1);
    const [aside] = asides;
    expect(aside.messages.map((m) => m.content)).toContain(
      `The function failed (the server answered HTTP 500). The caller has been told: "${ON_FAILURE}"` +
        '\nThe server\'s answer:\n{"error":"database down"}',
    );
    expect(recorded).toEqual([
      expect.objectContaining({ functionId: fn.id, outcome: 'http_error', logId: expect.any(String) }),
    ]);
  });

  it('the call keeps the timeout_ms it started with: the agents service is given the snapshot’s', async () => {
    // Started with 1000 ms (a later edit of the function changes no call's snapshot); the partner answers in 3 s.
    const fn = checkOrder('snapshot_timeout', { timeoutMs: 1000 });
    agents.partner(fn, { status: 200, body: JSON.stringify(ORDER), delayMs: 3000 });
    const { call, run } = await dial(fn, 'You are Maya from Acme, snapshot timeout test.');
    await run.phone.say(ASK);
    await calls.played(call, FAILED_REPLY);
    const recorded = await toolCalls(call, 1);
    await calls.hangUp(call, run);

    expect(agents.invokes(fn).map((r) => r.timeoutMs)).toEqual([1000]);
    expect(botLines(call).map((l) => l.content)).toEqual([INTRO, FAILED_REPLY]);
    expect(recorded).toEqual([
      expect.objectContaining({ functionId: fn.id, outcome: 'timeout', logId: expect.any(String) }),
    ]);
    expect(recorded[0].latencyMs).toBeLessThan(3000);
    const told = chatsAfter(ASK, 'snapshot timeout test')
      .map((c) => lastMessage(c))
      .filter((m) => m.role === 'tool');
    expect(told.map((m) => m.content)).toEqual([
      'The function failed (no answer within 1000 ms). Tell the caller briefly that it did not work.',
    ]);
  });

  it('on_start, on_delay and on_failure are transcript lines of their own, each stamped when it was said', async () => {
    const TIMEOUT_MS = 2000;
    const speech = {
      onStart: 'Let me look that up.',
      onDelay: 'Still looking, one moment.',
      delayMs: 500,
      onFailure: 'Sorry, the order system is not answering.',
    };
    const fn = checkOrder('spoken_lines', { timeoutMs: TIMEOUT_MS, speech });
    agents.partner(fn, { status: 200, body: JSON.stringify(ORDER), delayMs: 6000 });
    const { call, run } = await dial(fn, 'You are Maya from Acme, spoken lines test.');
    await run.phone.say(ASK_SPOKEN);
    await calls.played(call, MOVE_ON);
    const recorded = await toolCalls(call, 1);
    await calls.hangUp(call, run);

    const bot = botLines(call).slice(1);
    expect(bot.map((l) => l.content)).toEqual([speech.onStart, speech.onDelay, speech.onFailure, MOVE_ON]);
    const at = bot.map((l) => l.atMs);
    for (let i = 1; i < at.length; i++) expect(at[i]).toBeGreaterThan(at[i - 1]);
    expect(recorded).toEqual([expect.objectContaining({ functionId: fn.id, outcome: 'timeout' })]);
    // The request started before on_start was said; on_failure came once its 2 s (of wall time: media time runs
    // TIME_SCALE times faster) had run out.
    expect(at[0]).toBeGreaterThanOrEqual(recorded[0].atMs);
    expect(at[2]).toBeGreaterThanOrEqual(recorded[0].atMs + TIMEOUT_MS * TIME_SCALE);
  });
});
