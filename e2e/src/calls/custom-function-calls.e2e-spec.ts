// Custom functions in real sandbox calls, driven through the gateway like a partner: the callee of suffix 09 asks
// the agent to "check order, order number is 42", the offline engine calls the agent's check_order function
// (docs/voice.md, "The offline engine and partner functions"), and the platform sends one signed request to the
// partner's HTTPS server faked here. What the partner sees, what the agent says, what the call's session records
// (tool_calls, variables) and what the integration log keeps are checked together, for an answer and for one failure.
// How each failure is told apart (a timeout, a closed port, a name that does not resolve, a private address) is
// the same request whoever runs it: the agents e2e spec runs each through the function's test route and a call's
// invoke command, and what the agent says on each is the voice service's custom-function integration spec.
import { randomBytes } from 'node:crypto';
import { waitFor } from '@vap/testing';
import { api, ApiOptions, createPartner } from '../../support';
import {
  FunctionRequest,
  FunctionServer,
  signatureValid,
  startFunctionServer,
} from '../agents/function-server';
import { callee, CapturedEvent, EventTap, IDLE_REPROMPT, VOICE_ID } from './call-fixtures';

// Tests read response bodies freely; a mistyped read fails the assertion anyway.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

type Line = { role: string; content: string };

const MASK = '********';
const ASKS = 'Please check order, order number is 42.';
const ILOG_ID = /^ilog_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ORDER = { status: 'shipped', eta: 'Friday' };
/** What the offline engine says of the JSON answer ORDER. */
const SPOKEN_ORDER = 'Done. status shipped, eta Friday.';

const CHECK_ORDER = {
  name: 'check_order',
  description: 'Looks up where an order is by its number',
  parameters: {
    type: 'object',
    properties: { order_number: { type: 'integer', description: 'The order number' } },
    required: ['order_number'],
    additionalProperties: false,
  },
  response_variables: { order_status: '$.status', eta: '$.eta' },
};

interface CallRun {
  callId: string;
  call: Any;
  completed: CapturedEvent;
  lines: Line[];
}

/** A partner account on one platform: the run's, or a spec's own (`baseUrl`). */
class Account {
  private constructor(
    readonly key: string,
    readonly baseUrl: string | undefined,
  ) {}

  static async create(baseUrl?: string): Promise<Account> {
    const { apiKey } = await createPartner({ balance_inr: 500 }, baseUrl);
    return new Account(apiKey, baseUrl);
  }

  api(path: string, options: Omit<ApiOptions, 'key' | 'baseUrl'> = {}) {
    return api(path, { ...options, key: this.key, baseUrl: this.baseUrl });
  }
}

/**
 * The steps of a test on one platform: an account with an agent that has check_order attached, a call to the
 * callee who asks for it, and what the call and the integration log then show.
 */
class OrderCalls {
  constructor(
    private readonly tap: EventTap,
    private readonly baseUrl?: string,
  ) {}

  /** A partner of its own (names are unique per account) whose agent has check_order at `url` attached. */
  async agentWithCheckOrder(url: string, over: Record<string, unknown> = {}) {
    const account = await Account.create(this.baseUrl);
    const created = await account.api('/custom-functions', {
      method: 'POST',
      body: { ...CHECK_ORDER, url, ...over },
    });
    expect(created.status).toBe(200);
    const fn = created.body.data;
    const agentRes = await account.api('/agent', {
      method: 'POST',
      body: {
        agent_name: `Orders ${fn.id.slice(-8)}`,
        prompt: 'You are Maya from Acme Shop. You help customers with their orders.',
        voice_id: VOICE_ID,
        agent_type: 'outbound',
        intro_message: 'Hi {{customer_name}}, this is Maya from Acme Shop.',
      },
    });
    expect(agentRes.status).toBe(200);
    const agent = agentRes.body.data;
    const attached = await account.api(`/agent/${agent.id}/custom-functions/${fn.id}`, { method: 'POST' });
    expect(attached.status).toBe(200);
    expect(attached.body.data.custom_functions).toEqual([{ id: fn.id, name: 'check_order' }]);
    return { account, fn, agent };
  }

  /** Calls the callee who asks for check_order, and waits for the call's session to complete. */
  async callAskingForOrder(account: Account, agentId: string): Promise<CallRun> {
    const res = await account.api('/calls/start', {
      method: 'POST',
      body: { agent_id: agentId, to_number: callee('09'), variables: { customer_name: 'Asha' } },
    });
    expect(res.status).toBe(200);
    const callId: string = res.body.data.call_id;
    const completed = await this.tap.sessionCompleted(callId, 60_000);
    const call = (await account.api(`/calls/${callId}`)).body.data;
    expect(call.status).toBe('completed');
    const lines = (call.session.transcript as Line[]).map(({ role, content }) => ({ role, content }));
    return { callId, call, completed, lines };
  }

  /** The call's integration log entries, once `count` are listed. */
  async logEntriesOf(account: Account, callId: string, count = 1): Promise<Any[]> {
    return waitFor(
      async () => {
        const res = await account.api(`/integration-logs?call_id=${callId}`);
        expect(res.status).toBe(200);
        const items: Any[] = res.body.data.integration_logs;
        return items.length >= count ? items : undefined;
      },
      { timeoutMs: 10_000, intervalMs: 200, description: `the integration log entries of ${callId}` },
    );
  }
}

/** The agent's lines after the caller's ask, up to the caller's next words (a function's speech is a line of its own). */
function answerToTheAsk(lines: Line[]): string[] {
  const asked = lines.findIndex((l) => l.role === 'user' && l.content === ASKS);
  expect(asked).toBeGreaterThan(0);
  expect(lines[asked + 1]?.role).toBe('bot');
  const next = lines.findIndex((l, i) => i > asked && l.role === 'user');
  return lines
    .slice(asked + 1, next === -1 ? undefined : next)
    .map((l) => l.content)
    .filter((content) => content !== IDLE_REPROMPT);
}

/**
 * The agent's first line after the caller's ask, once the function failed. Only that one is the platform's to
 * place: the model's follow-up comes after its own synthesis, wall time on this machine, while the callee waits
 * for it in media time running MEDIA_TIME_SCALE times faster, so the callee's goodbye may land before it or cut
 * it. That the follow-up comes after on_failure, as a line of its own, is the voice conversation's unit spec
 * (conversation-custom-functions.spec.ts) on a manual clock, and its offline wording the offline engine's.
 */
function failureLine(lines: Line[]): string | undefined {
  const asked = lines.findIndex((l) => l.role === 'user' && l.content === ASKS);
  expect(asked).toBeGreaterThan(0);
  expect(lines[asked + 1]?.role).toBe('bot');
  return lines[asked + 1]?.content;
}

const customCalls = (run: CallRun): Any[] =>
  (run.call.session.tool_calls as Any[]).filter((t) => t.kind === 'custom');

describe('custom functions in sandbox calls', () => {
  let server: FunctionServer;
  let tap: EventTap;
  let calls: OrderCalls;

  beforeAll(async () => {
    server = await startFunctionServer();
    tap = await EventTap.open();
    calls = new OrderCalls(tap);
  });

  afterAll(async () => {
    await tap?.close();
    await server?.close();
  });

  const requestsTo = (path: string): FunctionRequest[] =>
    server.requests.filter((r) => new URL(r.url, 'https://x').pathname === path);

  it('sends one signed request with the arguments and the call, speaks the answer and records it', async () => {
    const path = orderPath('found');
    server.answer(path, { status: 200, body: JSON.stringify(ORDER) });
    const { account, fn, agent } = await calls.agentWithCheckOrder(`${server.url}${path}`);
    const run = await calls.callAskingForOrder(account, agent.id);

    // The partner got exactly one request: signed with the function's secret, the model's arguments (42 read as
    // the schema's integer) and the call it was made for.
    const requests = requestsTo(path);
    expect(requests).toHaveLength(1);
    const [req] = requests;
    expect(req.method).toBe('POST');
    expect(signatureValid(req, fn.signing_secret)).toBe(true);
    expect(JSON.parse(req.rawBody)).toEqual({
      function: { id: fn.id, name: 'check_order' },
      arguments: { order_number: 42 },
      call: {
        id: run.callId,
        browser_session_id: null,
        customer_id: null,
        agent_id: agent.id,
        direction: 'outbound',
        from_number: run.call.from_number,
        to_number: run.call.to_number,
        variables: { customer_name: 'Asha' },
      },
      test: false,
    });

    // The agent's next line speaks the answer.
    expect(answerToTheAsk(run.lines)).toEqual([SPOKEN_ORDER]);

    // The session lists the invocation and the variables its answer set, in the API and in session.completed.
    const invocation = {
      name: 'check_order',
      kind: 'custom',
      function_id: fn.id,
      arguments: { order_number: 42 },
      arguments_truncated: false,
      outcome: 'success',
      latency_ms: expect.any(Number),
      log_id: expect.stringMatching(ILOG_ID),
      timestamp: expect.any(String),
      variables: { order_status: 'shipped', eta: 'Friday' },
    };
    expect(customCalls(run)).toEqual([invocation]);
    const [recorded] = customCalls(run);
    expect(recorded.latency_ms).toBeGreaterThanOrEqual(0);
    expect(recorded.log_id).toBe(req.headers['x-vap-request-id']);
    // Called between the caller's question and the agent's answer, on the transcript's clock.
    const transcript = run.call.session.transcript as { role: string; content: string; timestamp: string }[];
    const asked = transcript.findIndex((l) => l.role === 'user' && l.content === ASKS);
    const calledAt = Date.parse(recorded.timestamp);
    expect(calledAt).toBeGreaterThanOrEqual(Date.parse(transcript[asked].timestamp));
    expect(calledAt).toBeLessThanOrEqual(Date.parse(transcript[asked + 1].timestamp));
    expect(run.call.session.variables).toEqual({
      customer_name: 'Asha',
      order_status: 'shipped',
      eta: 'Friday',
    });
    const event = run.completed.data as Any;
    expect(event.tool_calls.filter((t: Any) => t.kind === 'custom')).toEqual([recorded]);
    expect(event.variables).toEqual(run.call.session.variables);

    // The integration log lists the request for the call, and shows it with the signature masked.
    const [entry] = await calls.logEntriesOf(account, run.callId);
    expect(entry).toEqual({
      id: recorded.log_id,
      kind: 'custom_function',
      method: 'POST',
      url: `${server.url}${path}`,
      status: 200,
      outcome: 'success',
      error: null,
      latency_ms: expect.any(Number),
      attempts: 1,
      call_id: run.callId,
      browser_session_id: null,
      agent_id: agent.id,
      function_id: fn.id,
      hook_id: null,
      started_at: expect.any(String),
    });
    const detail = await account.api(`/integration-logs/${recorded.log_id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.data).toMatchObject({
      ...entry,
      request_body: req.rawBody,
      response_body: JSON.stringify(ORDER),
    });
    expect(detail.body.data.request_headers).toMatchObject({
      'x-vap-signature': MASK,
      'x-vap-request-id': recorded.log_id,
      'content-type': 'application/json',
    });
    expect(JSON.stringify(detail.body)).not.toContain(String(req.headers['x-vap-signature']));
  }, 90_000);

  describe('when the function fails', () => {
    const ON_FAILURE = 'Sorry, I cannot reach the order system right now.';

    it('the partner answers HTTP 500: the agent says on_failure, the session lists http_error, the log says so', async () => {
      const path = orderPath('http_error');
      server.answer(path, { status: 500, body: '{"error":"database down"}' });
      const { account, fn, agent } = await calls.agentWithCheckOrder(`${server.url}${path}`, {
        speech: { on_failure: ON_FAILURE },
      });
      const run = await calls.callAskingForOrder(account, agent.id);

      // Sent once: POST is never retried.
      expect(requestsTo(path)).toHaveLength(1);
      expect(failureLine(run.lines)).toBe(ON_FAILURE);
      expect(customCalls(run)).toEqual([
        {
          name: 'check_order',
          kind: 'custom',
          function_id: fn.id,
          arguments: { order_number: 42 },
          arguments_truncated: false,
          outcome: 'http_error',
          latency_ms: expect.any(Number),
          log_id: expect.stringMatching(ILOG_ID),
          timestamp: expect.any(String),
          variables: {},
        },
      ]);
      // Nothing was set from a failed answer.
      expect(run.call.session.variables).toEqual({ customer_name: 'Asha' });

      const [recorded] = customCalls(run);
      const [entry] = await calls.logEntriesOf(account, run.callId);
      expect(entry).toMatchObject({
        id: recorded.log_id,
        kind: 'custom_function',
        function_id: fn.id,
        call_id: run.callId,
        outcome: 'http_error',
        status: 500,
        error: 'the server answered HTTP 500',
        attempts: 1,
      });
    }, 60_000);
  });

  it('says on_start as the request leaves and on_delay while a slow partner has not answered, then the answer', async () => {
    const ON_START = 'Let me look that up.';
    const ON_DELAY = 'Still checking that order for you, thank you for waiting a moment longer.';
    // Well past delay_ms (500 ms of media time, which runs MEDIA_TIME_SCALE times faster than the wall clock here),
    // well within timeout_ms.
    const path = orderPath('slow');
    server.answer(path, { status: 200, body: JSON.stringify(ORDER), delayMs: 800 });
    const { account, agent } = await calls.agentWithCheckOrder(`${server.url}${path}`, {
      speech: { on_start: ON_START, on_delay: ON_DELAY, delay_ms: 500 },
    });
    const run = await calls.callAskingForOrder(account, agent.id);

    expect(requestsTo(path)).toHaveLength(1);
    expect(answerToTheAsk(run.lines)).toEqual([ON_START, ON_DELAY, SPOKEN_ORDER]);
    expect(customCalls(run)).toEqual([
      expect.objectContaining({ outcome: 'success', variables: { order_status: 'shipped', eta: 'Friday' } }),
    ]);
    expect(customCalls(run)[0].latency_ms).toBeGreaterThanOrEqual(800);
  }, 60_000);
});

/** A path of its own on the fake server per test: no test counts another's requests. */
function orderPath(label: string): string {
  return `/orders/${label}-${randomBytes(3).toString('hex')}`;
}
