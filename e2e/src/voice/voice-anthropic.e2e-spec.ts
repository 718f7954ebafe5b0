// An agent thinking with Claude on a carrier call, through the gateway: the partner's Anthropic key is checked
// live against a fake of the Messages API (MODEL_ANTHROPIC_BASE_URL) and stored, the agent names an Anthropic
// model with its parameters, and the fake, answering by the caller's last words, speaks, calls a partner function
// with its input streamed in pieces, and ends the call with the platform's end_call.
import {
  FakeAnthropicServer,
  type FakeAnthropicAnswer,
  type RecordedAnthropicRequest,
} from '@vap/llm/testing';
import { FunctionServer, startFunctionServer } from '../agents/function-server';
import { botLines, userLines, VoiceWorld } from './voice-fixtures';

// Tests read response bodies freely; a mistyped read fails the assertion anyway.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const INTRO = 'Hello, this is Maya from Acme.';
const MODEL = 'claude-haiku-4-5';
const PARTNER_KEY = 'sk-ant-api03-partner-e2e-0123456789';
const SHIPPED = 'Your order has shipped.';

type Block = { type: string; text?: string; content?: string; tool_use_id?: string };
type Turn = { role: string; content: Block[] };

const offered = (req: RecordedAnthropicRequest, name: string) =>
  (req.tools as { name: string }[]).some((t) => t.name === name);

/** What Claude answers: by the tool results it was given, else by the caller's last words. */
function claude(functionName: string): (req: RecordedAnthropicRequest) => FakeAnthropicAnswer {
  return (req) => {
    // Post-call analysis and extraction ask without streaming: one JSON object serves both.
    if (!req.stream)
      return {
        kind: 'reply',
        text: ['{"summary": "The caller asked about an order.", "score": 8, "reasons": "Answered."}'],
      };
    const last = (req.messages as Turn[]).at(-1);
    const result = last?.content.find((b) => b.type === 'tool_result');
    if (result)
      return {
        kind: 'reply',
        text: [/shipped/.test(result.content ?? '') ? SHIPPED : 'I could not find it.'],
      };
    const said =
      last?.content
        .filter((b) => b.type === 'text')
        .map((b) => b.text)
        .join(' ') ?? '';
    if (/goodbye/i.test(said) && offered(req, 'end_call'))
      return {
        kind: 'reply',
        toolUses: [{ name: 'end_call', input: { reason: 'the caller said goodbye' } }],
      };
    if (/order/i.test(said) && offered(req, functionName))
      return {
        kind: 'reply',
        text: ['Let me', ' check.'],
        toolUses: [{ id: 'toolu_order', name: functionName, input: { order_number: 42 }, pieces: 4 }],
        usage: { inputTokens: 120, outputTokens: 30 },
      };
    return {
      kind: 'reply',
      text: ['You said ', said.replace(/[.?!]+$/, ''), '.'],
      usage: { inputTokens: 100, outputTokens: 8 },
    };
  };
}

describe('an agent on an Anthropic model', () => {
  let world: VoiceWorld;
  let anthropic: FakeAnthropicServer;
  let functions: FunctionServer;

  beforeAll(async () => {
    anthropic = await FakeAnthropicServer.start({ apiKey: PARTNER_KEY });
    functions = await startFunctionServer();
    world = await VoiceWorld.start({
      name: 'voice_anthropic',
      providers: { llm: true },
      env: {
        MODEL_ANTHROPIC_BASE_URL: anthropic.baseUrl,
        // The partner's function server listens on loopback with a certificate of the run's test CA.
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        NODE_EXTRA_CA_CERTS: process.env.E2E_TLS_CA ?? '',
      },
    });
  }, 180_000);

  afterAll(async () => {
    await world?.stop();
    await anthropic?.close();
    await functions?.close();
  });

  it('stores the partner’s Anthropic key once Anthropic took it, and refuses one it does not', async () => {
    // A key Anthropic refuses is not stored; the partner's own is, once Anthropic took it.
    const refused = await world.api('/provider-credentials', {
      body: { provider: 'anthropic', api_key: 'sk-ant-api03-not-this-one-000000' },
    });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('invalid x-api-key');
    const stored = await world.api('/provider-credentials', {
      body: { provider: 'anthropic', api_key: PARTNER_KEY },
    });
    expect(stored.status).toBe(200);
    expect(stored.body.data.provider_credential).toMatchObject({
      provider: 'anthropic',
      used_for: expect.arrayContaining(['models']),
    });
    expect(anthropic.keyChecks.map((r) => [r.path, r.apiKey, r.version])).toEqual([
      ['/v1/models', 'sk-ant-api03-not-this-one-000000', '2023-06-01'],
      ['/v1/models', PARTNER_KEY, '2023-06-01'],
    ]);
  });

  it('answers a carrier call with Claude on that key, its parameters sent, its tool calls run, each line naming it', async () => {
    functions.answer('/orders', { status: 200, body: JSON.stringify({ status: 'shipped' }) });
    const fn = await world.api('/custom-functions', {
      body: {
        name: 'check_order',
        description: 'Looks up where an order is by its number',
        url: `${functions.url}/orders`,
        parameters: {
          type: 'object',
          properties: { order_number: { type: 'integer', minimum: 1 } },
          required: ['order_number'],
        },
      },
    });
    expect(fn.status).toBe(200);
    anthropic.respond = claude('check_order');

    const agent = await world.agent({
      model: { provider: 'anthropic', model: MODEL, temperature: 0.3, max_tokens: 200 },
      intro_message: INTRO,
    });
    expect(agent.model).toMatchObject({
      provider: 'anthropic',
      model: MODEL,
      temperature: 0.3,
      max_tokens: 200,
    });
    const attached = await world.api(`/agent/${agent.id}/custom-functions/${fn.body.data.id}`, {
      method: 'POST',
    });
    expect(attached.status).toBe(200);

    const call = await world.dial('carrier_b', agent.id);
    await call.media.waitForHeard(INTRO);
    await call.media.waitUntilAgentSilent();
    await call.media.say('I would like to know my plan.');
    await call.media.waitForHeard('You said I would like to know my plan.');
    await call.media.waitUntilAgentSilent();

    // Claude's first round: the partner's key, the version, the agent's parameters as Anthropic names them.
    const first = anthropic.messages[0];
    expect(first).toMatchObject({ apiKey: PARTNER_KEY, version: '2023-06-01', model: MODEL, stream: true });
    expect(first.parameters).toEqual({ max_tokens: 200, temperature: 0.3, top_p: undefined });
    expect(first.system).toEqual(expect.stringContaining('You are Maya'));
    expect((first.tools as Any[]).map((t) => t.name)).toEqual(
      expect.arrayContaining(['end_call', 'check_order']),
    );
    expect(first.tools[0]).toEqual({
      name: expect.any(String),
      description: expect.any(String),
      input_schema: expect.objectContaining({ type: 'object' }),
    });

    // A tool call streamed in pieces runs the partner's function; its result goes back as a tool_result.
    await call.media.say('Where is my order?');
    await call.media.waitForHeard(SHIPPED);
    await call.media.waitUntilAgentSilent();
    expect(functions.requests.map((r) => JSON.parse(r.rawBody))).toEqual([
      expect.objectContaining({
        function: expect.objectContaining({ name: 'check_order' }),
        arguments: { order_number: 42 },
      }),
    ]);
    const answered = anthropic.messages.find((r) =>
      (r.messages as Turn[]).at(-1)?.content.some((b) => b.type === 'tool_result'),
    );
    const turns = answered!.messages as Any[];
    expect(turns.at(-2)).toMatchObject({
      role: 'assistant',
      content: expect.arrayContaining([
        { type: 'tool_use', id: 'toolu_order', name: 'check_order', input: { order_number: 42 } },
      ]),
    });
    expect(turns.at(-1)).toMatchObject({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_order', content: expect.stringContaining('shipped') },
      ],
    });

    // The platform's end_call, asked for by Claude.
    await call.media.say('That is all, goodbye.');
    await world.hungUpByPlatform(call);
    const finished = await world.finished(call.callId);
    expect(finished.end_call_reason).toBe('agent_ended_call');
    expect(finished.session.tool_calls).toEqual([
      expect.objectContaining({ name: 'check_order', arguments: { order_number: 42 }, outcome: 'success' }),
      expect.objectContaining({ name: 'end_call', outcome: 'success' }),
    ]);

    const transcript = finished.session.transcript as Any[];
    expect(userLines(transcript).map((l) => l.content)).toHaveLength(3);
    const bots = botLines(transcript);
    expect(bots[0]).toMatchObject({ content: INTRO, providers: { llm: null, llm_model: null } });
    expect(bots.map((l) => [l.content, l.providers?.llm, l.providers?.llm_model])).toEqual([
      [INTRO, null, null],
      ['You said I would like to know my plan.', 'anthropic', MODEL],
      // The words before the tool call and the answer after it are one turn's line.
      [`Let me check. ${SHIPPED}`, 'anthropic', MODEL],
      // end_call's message, in Claude's turn.
      [expect.any(String), 'anthropic', MODEL],
    ]);
    // Every streamed round ran on the partner's key.
    expect(anthropic.messages.every((r) => r.apiKey === PARTNER_KEY)).toBe(true);
    expect(finished.model_usage).toEqual([
      expect.objectContaining({ provider: 'anthropic', model: MODEL, paid_by: 'account' }),
    ]);
  }, 180_000);
});
