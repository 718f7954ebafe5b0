// A partner's function called by a language model in live carrier calls: the fake carrier_b answers into the
// media stream, the model is the fake OpenAI-compatible server scripted below, and the function's URL is the
// partner's HTTPS server faked here. What the platform does between the model and the partner is what is tested:
// arguments checked against the schema before anything is sent, response_variables merged into the prompt the
// model is given next, and an async function whose answer joins the conversation after the agent went on.
import { randomBytes } from 'node:crypto';
import { waitFor } from '@vap/testing';
import { ChatCompletionRequest, ChatScript, lastUserText } from '../../support/fake-media';
import {
  Answer,
  FunctionRequest,
  FunctionServer,
  signatureValid,
  startFunctionServer,
} from '../agents/function-server';
import { LiveCall, VoiceWorld } from './voice-fixtures';

// Tests read response bodies freely; a mistyped read fails the assertion anyway.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const INTRO = 'Hello, this is Maya from Acme.';
const ILOG_ID = /^ilog_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ORDER = { status: 'shipped', eta: 'Friday' };

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
/** Asked when the function's static on_failure has told the caller: the model then only moves on. */
const ASK_SPOKEN = 'Is order 42 on its way?';
const MOVE_ON = 'Anything else I can do?';

const CHECK_ORDER = {
  name: 'check_order',
  description: 'Looks up where an order is by its number',
  parameters: {
    type: 'object',
    properties: { order_number: { type: 'integer', minimum: 1 } },
    required: ['order_number'],
    additionalProperties: false,
  },
  response_variables: { order_status: '$.status', eta: '$.eta' },
};

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
    return { text: 'That did not work.' };
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

describe('custom functions called by the model in carrier calls', () => {
  let world: VoiceWorld;
  let server: FunctionServer;

  beforeAll(async () => {
    server = await startFunctionServer();
    world = await VoiceWorld.start({
      name: 'voice_functions',
      providers: { llm: true },
      // The partner's fake server listens on loopback with a certificate of the run's test CA.
      env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', NODE_EXTRA_CA_CERTS: process.env.E2E_TLS_CA ?? '' },
    });
    world.ai.script(script);
  }, 180_000);

  afterAll(async () => {
    await world?.stop();
    await server?.close();
  });

  const requestsTo = (path: string): FunctionRequest[] =>
    server.requests.filter((r) => new URL(r.url, 'https://x').pathname === path);

  /**
   * A new agent with the partner's function check_order_<label>_<random> attached, its URL a path of its own on
   * the server, which answers it `answer`.
   */
  async function agentWithCheckOrder(
    label: string,
    answer: Answer,
    fn: Record<string, unknown> = {},
    agent: Record<string, unknown> = {},
  ): Promise<{ fn: Any; agent: Any; path: string }> {
    // Unique per attempt: a retried test neither meets the first attempt's name nor counts its requests.
    const unique = `${label}_${randomBytes(3).toString('hex')}`;
    const path = `/${unique}`;
    server.answer(path, answer);
    const created = await world.api('/custom-functions', {
      body: { ...CHECK_ORDER, name: `check_order_${unique}`, url: `${server.url}${path}`, ...fn },
    });
    expect(created.status).toBe(200);
    const made = await world.agent(agent);
    const attached = await world.api(`/agent/${made.id}/custom-functions/${created.body.data.id}`, {
      method: 'POST',
    });
    expect(attached.status).toBe(200);
    return { fn: created.body.data, agent: made, path };
  }

  /** Dials the agent on carrier_b and waits until its intro has been said. */
  async function dialAndListen(agentId: string): Promise<LiveCall> {
    const call = await world.dial('carrier_b', agentId, { body: { variables: { customer_name: 'Asha' } } });
    await call.media.waitForHeard(INTRO);
    await call.media.waitUntilAgentSilent();
    return call;
  }

  async function hangUp(call: LiveCall): Promise<Any> {
    call.media.hangUp();
    await world.complete(call, call.media.mediaMs / 1000, 'callee');
    return world.finished(call.callId);
  }

  /** The model's requests, under the test's own prompt (`prompt` names it), that followed the caller's `callLine`. */
  const chatsAfter = (callLine: string, prompt: string) =>
    world.ai.chats.filter(
      (c) =>
        systemPrompt(c).includes(prompt) &&
        c.messages.some((m) => m.role === 'user' && m.content === callLine),
    );

  it('never sends arguments that break the schema: the model is told, calls again with valid ones, and the answer is spoken', async () => {
    const { fn, agent, path } = await agentWithCheckOrder(
      'invalid_first',
      { status: 200, body: JSON.stringify(ORDER) },
      {},
      {
        prompt: 'You are Maya from Acme, invalid-arguments test.',
      },
    );
    const call = await dialAndListen(agent.id);
    await call.media.say(ASK_IN_WORDS);
    await call.media.waitForHeard(ANSWERED);
    await call.media.waitUntilAgentSilent();
    const done = await hangUp(call);

    // Only the valid call reached the partner.
    const requests = requestsTo(path);
    expect(requests).toHaveLength(1);
    expect(signatureValid(requests[0], fn.signing_secret)).toBe(true);
    expect(JSON.parse(requests[0].rawBody)).toMatchObject({
      function: { id: fn.id, name: fn.name },
      arguments: { order_number: 42 },
      call: {
        id: call.callId,
        agent_id: agent.id,
        direction: 'outbound',
        variables: { customer_name: 'Asha' },
      },
      test: false,
    });

    // The model was told what to fix, then got the answer.
    const chats = chatsAfter(ASK_IN_WORDS, 'invalid-arguments test');
    const told = chats.map((c) => lastMessage(c)).filter((m) => m.role === 'tool');
    expect(told).toHaveLength(2);
    expect(told[0].content).toMatch(/^The arguments were not valid, so nothing was sent: .*order_number/);
    expect(told[0].content).toContain(`call ${fn.name} again`);
    // The answer as the partner sent it, and a note of the variables it set (in no particular order).
    const [answer, note] = (told[1].content ?? '').split('\n');
    expect(answer).toBe(JSON.stringify(ORDER));
    expect(note).toMatch(/^\(Call variables now set: (order_status, eta|eta, order_status)\.\)$/);
    // Nothing was said to the caller about the refused arguments.
    expect(call.media.heard.map((h) => h.text)).toEqual([INTRO, ANSWERED]);

    expect(done.session.tool_calls).toEqual([
      expect.objectContaining({
        name: fn.name,
        kind: 'custom',
        function_id: fn.id,
        arguments: { order_number: 'forty two' },
        outcome: 'invalid_arguments',
        log_id: null,
        variables: {},
      }),
      expect.objectContaining({
        name: fn.name,
        kind: 'custom',
        function_id: fn.id,
        arguments: { order_number: 42 },
        outcome: 'success',
        log_id: expect.stringMatching(ILOG_ID),
        variables: { order_status: 'shipped', eta: 'Friday' },
      }),
    ]);
    // One request, one integration log entry.
    const logged = await world.api(`/integration-logs?call_id=${call.callId}`);
    expect(logged.body.data.integration_logs.map((e: Any) => e.id)).toEqual([
      done.session.tool_calls[1].log_id,
    ]);
  });

  it('response_variables reach the prompt the model is given from its next round on', async () => {
    const { agent } = await agentWithCheckOrder(
      'prompt_vars',
      { status: 200, body: JSON.stringify(ORDER) },
      {},
      {
        prompt: 'You are Maya from Acme, variables test. The order is {{order_status}}, due {{eta}}.',
      },
    );
    const call = await dialAndListen(agent.id);
    await call.media.say(ASK);
    await call.media.waitForHeard(ANSWERED);
    await call.media.waitUntilAgentSilent();
    await call.media.say(ASIDE);
    await call.media.waitForHeard(ASIDE_REPLY);
    await call.media.waitUntilAgentSilent();
    const done = await hangUp(call);

    const chats = chatsAfter(ASK, 'variables test');
    // The round that called the function read the placeholders unset; every later round reads the values.
    expect(chats.length).toBeGreaterThanOrEqual(3);
    const [asked, ...later] = chats;
    expect(lastMessage(asked)).toMatchObject({ role: 'user', content: ASK });
    expect(systemPrompt(asked)).toContain('The order is {{order_status}}, due {{eta}}.');
    for (const chat of later) expect(systemPrompt(chat)).toContain('The order is shipped, due Friday.');
    expect(later.some((c) => lastMessage(c).role === 'user' && lastMessage(c).content === ASIDE)).toBe(true);
    expect(done.session.variables).toEqual({ customer_name: 'Asha', order_status: 'shipped', eta: 'Friday' });
  });

  it('async: the conversation goes on while the partner works, and the answer is spoken when it comes', async () => {
    const { fn, agent, path } = await agentWithCheckOrder(
      'async_order',
      // Slow enough for a whole exchange with the caller meanwhile, well within timeout_ms.
      { status: 200, body: JSON.stringify(ORDER), delayMs: 4000 },
      { async: true, timeout_ms: 15_000 },
      { prompt: 'You are Maya from Acme, async test.' },
    );
    const call = await dialAndListen(agent.id);
    await call.media.say(ASK);
    await call.media.waitForHeard(PENDING_REPLY);
    await call.media.waitUntilAgentSilent();
    await call.media.say(ASIDE);
    await call.media.waitForHeard(ASIDE_REPLY);
    // The aside was answered while the partner had not answered yet.
    expect(requestsTo(path)).toHaveLength(1);
    expect(call.media.heard.map((h) => h.text)).not.toContain(ANSWERED);
    // The answer comes, and the agent speaks about it by itself.
    await call.media.waitForHeard(ANSWERED, 30_000);
    await call.media.waitUntilAgentSilent();
    const done = await hangUp(call);

    expect(call.media.heard.map((h) => h.text)).toEqual([INTRO, PENDING_REPLY, ASIDE_REPLY, ANSWERED]);
    // The answer joined the history as the function's own call and result, after the aside.
    const spoke = world.ai.chats.find(
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

    expect(done.session.tool_calls).toEqual([
      expect.objectContaining({
        name: fn.name,
        function_id: fn.id,
        outcome: 'success',
        log_id: expect.stringMatching(ILOG_ID),
        variables: { order_status: 'shipped', eta: 'Friday' },
      }),
    ]);
    expect(done.session.tool_calls[0].latency_ms).toBeGreaterThanOrEqual(4000);
  });

  it('a failure with no on_failure text: the model is told why, with the answer’s body, and words it; the status reaches the log', async () => {
    const boom = JSON.stringify({ error: `boom-${randomBytes(4).toString('hex')}` });
    const { fn, agent } = await agentWithCheckOrder(
      'failing',
      { status: 500, body: boom },
      {},
      { prompt: 'You are Maya from Acme, failure test.' },
    );
    const call = await dialAndListen(agent.id);
    await call.media.say(ASK);
    await call.media.waitForHeard('That did not work.');
    await call.media.waitUntilAgentSilent();
    const done = await hangUp(call);

    const told = chatsAfter(ASK, 'failure test')
      .map((c) => lastMessage(c))
      .filter((m) => m.role === 'tool');
    expect(told.map((m) => m.content)).toEqual([
      'The function failed (the server answered HTTP 500). Tell the caller briefly that it did not work.' +
        `\nThe server's answer:\n${boom}`,
    ]);
    // Nothing but the model's own words was said.
    expect(call.media.heard.map((h) => h.text)).toEqual([INTRO, 'That did not work.']);
    expect(done.session.tool_calls).toEqual([
      expect.objectContaining({ function_id: fn.id, outcome: 'http_error', variables: {} }),
    ]);
    const entry = await world.api(`/integration-logs/${done.session.tool_calls[0].log_id}`);
    expect(entry.status).toBe(200);
    expect(entry.body.data).toMatchObject({
      kind: 'custom_function',
      call_id: call.callId,
      function_id: fn.id,
      status: 500,
      outcome: 'http_error',
      response_body: boom,
    });
  });

  it('the caller hanging up while the partner works: the wait stops and the invocation is cancelled', async () => {
    const { fn, agent, path } = await agentWithCheckOrder(
      'hung_up',
      { status: 200, body: JSON.stringify(ORDER), delayMs: 8000 },
      { timeout_ms: 20_000 },
      { prompt: 'You are Maya from Acme, hang-up test.' },
    );
    const call = await dialAndListen(agent.id);
    await call.media.say(ASK);
    await waitFor(() => requestsTo(path).length === 1, {
      timeoutMs: 10_000,
      description: 'the request to reach the partner',
    });
    const hungUpAt = Date.now();
    const done = await hangUp(call);
    // The call finished without waiting for the partner's answer.
    expect(Date.now() - hungUpAt).toBeLessThan(8000);
    expect(done.session.tool_calls).toEqual([
      expect.objectContaining({
        function_id: fn.id,
        arguments: { order_number: 42 },
        outcome: 'cancelled',
        log_id: null,
        variables: {},
      }),
    ]);
    expect(done.session.variables).toEqual({ customer_name: 'Asha' });
  });

  it('runs at most 4 function calls in one turn: the fifth is not sent, the model is told the limit', async () => {
    const { fn, agent, path } = await agentWithCheckOrder(
      'five_orders',
      { status: 200, body: JSON.stringify(ORDER) },
      {},
      { prompt: 'You are Maya from Acme, limit test.' },
    );
    const call = await dialAndListen(agent.id);
    await call.media.say(ASK_FIVE);
    await call.media.waitForHeard(LIMIT_REPLY);
    await call.media.waitUntilAgentSilent();
    const done = await hangUp(call);

    expect(requestsTo(path).map((r) => JSON.parse(r.rawBody).arguments.order_number)).toEqual([1, 2, 3, 4]);
    // Each request carries the variables the ones before it set.
    expect(requestsTo(path).map((r) => JSON.parse(r.rawBody).call.variables)).toEqual([
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
      done.session.tool_calls.map((t: Any) => [
        t.name,
        t.arguments.order_number,
        t.outcome,
        t.log_id === null,
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
    const { fn, agent } = await agentWithCheckOrder(
      'async_failing',
      { status: 500, body: '{"error":"database down"}', delayMs: 1500 },
      { async: true, speech: { on_failure: ON_FAILURE } },
      { prompt: 'You are Maya from Acme, async failure test.' },
    );
    const call = await dialAndListen(agent.id);
    await call.media.say(ASK);
    await call.media.waitForHeard(PENDING_REPLY);
    await call.media.waitForHeard(ON_FAILURE);
    await call.media.waitUntilAgentSilent();
    // The caller goes on; the model's history holds the failure as the function's result, the caller told.
    await call.media.say(ASIDE);
    await call.media.waitForHeard(ASIDE_REPLY);
    await call.media.waitUntilAgentSilent();
    const done = await hangUp(call);

    expect(call.media.heard.map((h) => h.text)).toEqual([INTRO, PENDING_REPLY, ON_FAILURE, ASIDE_REPLY]);
    // The model's next round, the caller's aside, knew of the failure and what the caller was told.
    const asides = chatsAfter(ASIDE, 'async failure test');
    expect(asides).toHaveLength(1);
    const [aside] = asides;
    expect(aside.messages.map((m) => m.content)).toContain(
      `The function failed (the server answered HTTP 500). The caller has been told: "${ON_FAILURE}"` +
        '\nThe server\'s answer:\n{"error":"database down"}',
    );
    expect(done.session.tool_calls).toEqual([
      expect.objectContaining({
        function_id: fn.id,
        outcome: 'http_error',
        log_id: expect.stringMatching(ILOG_ID),
      }),
    ]);
  });

  it('timeout_ms changed during the call: the call keeps the value it started with', async () => {
    const { fn, agent } = await agentWithCheckOrder(
      'snapshot_timeout',
      // Later than the call's 1000 ms, well within the 30 s the function says by the time it is called.
      { status: 200, body: JSON.stringify(ORDER), delayMs: 3000 },
      { timeout_ms: 1000 },
      { prompt: 'You are Maya from Acme, snapshot timeout test.' },
    );
    const call = await dialAndListen(agent.id);
    const changed = await world.api(`/custom-functions/${fn.id}`, {
      method: 'PATCH',
      body: { timeout_ms: 30_000 },
    });
    expect(changed.status).toBe(200);
    await call.media.say(ASK);
    await call.media.waitForHeard('That did not work.');
    await call.media.waitUntilAgentSilent();
    const done = await hangUp(call);

    expect(call.media.heard.map((h) => h.text)).toEqual([INTRO, 'That did not work.']);
    expect(done.session.tool_calls).toEqual([
      expect.objectContaining({
        function_id: fn.id,
        outcome: 'timeout',
        log_id: expect.stringMatching(ILOG_ID),
      }),
    ]);
    expect(done.session.tool_calls[0].latency_ms).toBeLessThan(3000);
    const entry = await world.api(`/integration-logs/${done.session.tool_calls[0].log_id}`);
    expect(entry.body.data).toMatchObject({ outcome: 'timeout', error: 'no answer within 1000 ms' });
  });

  it('on_start, on_delay and on_failure are transcript lines of their own, each stamped when it was said', async () => {
    const speech = {
      on_start: 'Let me look that up.',
      on_delay: 'Still looking, one moment.',
      delay_ms: 500,
      on_failure: 'Sorry, the order system is not answering.',
    };
    const { fn, agent } = await agentWithCheckOrder(
      'spoken_lines',
      { status: 200, body: JSON.stringify(ORDER), delayMs: 6000 },
      { timeout_ms: 2000, speech },
      { prompt: 'You are Maya from Acme, spoken lines test.' },
    );
    const call = await dialAndListen(agent.id);
    await call.media.say(ASK_SPOKEN);
    await call.media.waitForHeard(MOVE_ON, 20_000);
    await call.media.waitUntilAgentSilent();
    const done = await hangUp(call);

    const bot = (done.session.transcript as Any[]).filter((l) => l.role === 'bot').slice(1);
    expect(bot.map((l) => l.content)).toEqual([speech.on_start, speech.on_delay, speech.on_failure, MOVE_ON]);
    const at = bot.map((l) => Date.parse(l.timestamp));
    for (let i = 1; i < at.length; i++) expect(at[i]).toBeGreaterThan(at[i - 1]);
    expect(done.session.tool_calls).toEqual([
      expect.objectContaining({ function_id: fn.id, outcome: 'timeout' }),
    ]);
    // The request started before on_start was heard; on_failure came once its 2 s had run out.
    const requestAt = Date.parse(done.session.tool_calls[0].timestamp);
    expect(at[0]).toBeGreaterThanOrEqual(requestAt);
    expect(at[2]).toBeGreaterThanOrEqual(requestAt + 2000);
  });
});
