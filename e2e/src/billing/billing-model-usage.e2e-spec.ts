// Model use and money end to end, through the gateway on carrier calls: one agent thinks on the platform's Groq
// key (MODEL_GROQ_*, the key and base URL of a fake speaking Groq's OpenAI-compatible protocol), another on the
// partner's own DeepSeek key (stored with POST /provider-credentials, checked live against a second fake). Each
// fake reports its own token counts per reply (Chat Completions `usage` in the stream's last chunk). The call's
// model_usage, its session.completed (at a webhook receiver), its ledger charge and GET /billing/usage agree
// exactly with what the fakes reported; the charge is the minutes only. The partner's agent's post-call analysis
// runs on the same model and key.
import { FakeAnswer, FakeChatServer } from '@vap/llm/testing';
import { waitFor } from '@vap/testing';
import { CALL_SERVICES } from '../../support';
import { botLines, LiveCall, VoiceWorld } from '../voice/voice-fixtures';
import { verifySignature, WebhookReceiver, WebhookRequest } from '../webhooks/webhook-receiver';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

jest.setTimeout(180_000);

const INTRO = 'Hello, this is Maya from Acme.';
const PLATFORM_GROQ_KEY = 'gsk-e2e-platform-groq-0001';
const PARTNER_DEEPSEEK_KEY = 'sk-e2e-partner-deepseek-0002';
const GROQ_MODEL = 'llama-3.1-8b-instant';
const DEEPSEEK_MODEL = 'deepseek-chat';
/** The calls service's price of a minute (CALL_PRICE_PER_MINUTE_PAISE, its default). */
const PRICE_PER_MINUTE_PAISE = 400;
/** What the partner's model answers the post-call analysis (a JSON object, as the analysis asks). */
const ANALYSIS = JSON.stringify({
  summary: 'The caller asked about an order.',
  score: 6,
  reasons: 'Answered.',
});

/** The tokens the fake reports for its `n`th reply (from 0): different for every reply, so none is counted twice. */
const usageOf = (n: number) => ({ inputTokens: 1000 + 37 * n, outputTokens: 20 + n });

/** Replies enough for every round of a call, each saying its number and reporting its own tokens. */
const replies = (): FakeAnswer[] =>
  Array.from({ length: 12 }, (_, n) => ({
    kind: 'reply',
    text: ['Reply ', `number ${n + 1}.`],
    usage: usageOf(n),
  }));

/** The fake's streamed requests (the conversation's rounds; post-call work is not streamed). */
const rounds = (fake: FakeChatServer) => fake.requests.filter((r) => r.body.stream === true);

/** The tokens of the fake's first `count` replies, as it reported them. */
const reported = (count: number) =>
  Array.from({ length: count }, (_, n) => usageOf(n)).reduce(
    (sum, u) => ({ input: sum.input + u.inputTokens, output: sum.output + u.outputTokens }),
    { input: 0, output: 0 },
  );

describe('model use in calls, session.completed, the ledger and usage', () => {
  let world: VoiceWorld;
  let groq: FakeChatServer;
  let deepseek: FakeChatServer;
  let receiver: WebhookReceiver;
  let secret: string;
  /** The calls of this partner, as the tests leave them: the usage test sums them. */
  const finished: Any[] = [];

  beforeAll(async () => {
    groq = await FakeChatServer.start();
    deepseek = await FakeChatServer.start();
    receiver = await WebhookReceiver.start();
    world = await VoiceWorld.start({
      name: 'billing_model_usage',
      services: [...CALL_SERVICES, 'webhooks'],
      // Speech and the deployment's default model stay offline: only the agents' own models are the fakes.
      providers: {},
      env: {
        MODEL_GROQ_API_KEY: PLATFORM_GROQ_KEY,
        MODEL_GROQ_BASE_URL: groq.baseUrl,
        // DeepSeek has no platform key here: the partner's own answers, at the fake.
        MODEL_DEEPSEEK_BASE_URL: deepseek.baseUrl,
        // session.completed goes to the receiver on loopback, over HTTPS with the run's test CA.
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        ...(process.env.E2E_TLS_CA ? { NODE_EXTRA_CA_CERTS: process.env.E2E_TLS_CA } : {}),
      },
    });
    const endpoint = await world.api('/config/webhooks', {
      method: 'POST',
      body: { label: 'sessions', url: receiver.at('sessions'), events: ['session.completed'] },
    });
    expect(endpoint.status).toBe(200);
    secret = endpoint.body.data.secret;
  }, 180_000);

  afterAll(async () => {
    await world?.stop();
    await receiver?.close();
    await groq?.close();
    await deepseek?.close();
  });

  /** The caller says two lines, each answered by the agent's model, then the carrier ends the call. */
  async function converse(call: LiveCall): Promise<void> {
    await call.media.waitForHeard(INTRO);
    await call.media.waitUntilAgentSilent();
    await call.media.say('I would like to know my order status.');
    await call.media.waitForHeard('Reply number 1.');
    await call.media.waitUntilAgentSilent();
    await call.media.say('And when will it arrive?');
    await call.media.waitForHeard('Reply number 2.');
    await call.media.waitUntilAgentSilent();
  }

  /** The call's session.completed as the receiver got it, signed with the endpoint's secret. */
  async function sessionCompleted(callId: string): Promise<Any> {
    const [delivery] = await receiver.waitFor(
      1,
      (r: WebhookRequest) => r.json?.event === 'session.completed' && r.json.data.call_id === callId,
      60_000,
    );
    expect(verifySignature(delivery, secret)).toBe(true);
    return delivery.json.data;
  }

  /** The call's charge in the ledger, once the gateway has debited it. */
  const chargeOf = (callId: string): Promise<Any> =>
    waitFor(
      async () => {
        const res = await world.api('/billing/transactions?type=charge&limit=100');
        return res.body.data.transactions.find((t: Any) => t.call_id === callId);
      },
      { timeoutMs: 60_000, intervalMs: 300, description: `the charge of call ${callId}` },
    );

  /** The line-by-line usage of the model's lines, summed. */
  const lineTokens = (transcript: Any[]) =>
    botLines(transcript)
      .filter((l) => l.usage)
      .reduce(
        (sum, l) => ({ input: sum.input + l.usage.input_tokens, output: sum.output + l.usage.output_tokens }),
        { input: 0, output: 0 },
      );

  it('counts the platform key’s tokens as the fake reported them, on the call, the webhook, the ledger', async () => {
    groq.clear();
    groq.script(...replies());
    // No post-call analysis: every request the fake gets is the conversation's.
    const agent = await world.agent({
      model: { provider: 'groq', model: GROQ_MODEL },
      analysis_config: { summary_enabled: false },
    });
    const call = await world.dial('carrier_b', agent.id);
    await converse(call);
    await world.complete(call, Math.ceil(call.media.mediaMs / 1000));
    const done = await world.finished(call.callId);

    const asked = rounds(groq);
    expect(asked.length).toBeGreaterThanOrEqual(2);
    for (const r of asked) {
      expect(r.headers.authorization).toBe(`Bearer ${PLATFORM_GROQ_KEY}`);
      expect(r.body).toMatchObject({ model: GROQ_MODEL, stream_options: { include_usage: true } });
    }
    const tokens = reported(asked.length);
    const usage = [
      {
        provider: 'groq',
        model: GROQ_MODEL,
        paid_by: 'platform',
        input_tokens: tokens.input,
        output_tokens: tokens.output,
        replies: botLines(done.session.transcript).filter((l) => l.providers?.llm === 'groq').length,
      },
    ];
    expect(usage[0].replies).toBeGreaterThanOrEqual(2);
    expect(done.model_usage).toEqual(usage);
    // The lines carry the same tokens, each once.
    expect(lineTokens(done.session.transcript)).toEqual(tokens);
    const listed = await world.api(`/calls?agent_id=${agent.id}`);
    expect(listed.body.data.calls.find((c: Any) => c.call_id === call.callId).model_usage).toEqual(usage);

    const session = await sessionCompleted(call.callId);
    expect(session.model_usage).toEqual(usage);
    // The minutes are the charge: the platform's model use is within the minute price.
    expect(session.credits_used_paise).toBe(Math.ceil((session.bill_seconds * PRICE_PER_MINUTE_PAISE) / 60));
    const charge = await chargeOf(call.callId);
    expect(charge).toMatchObject({
      amount_inr: -session.credits_used,
      billed_seconds: session.bill_seconds,
      model_usage: usage,
    });
    finished.push(done);
  });

  it('counts the partner key’s tokens as the account’s, and analyses the call on the same model and key', async () => {
    deepseek.clear();
    // The key check: DeepSeek's GET /models with the key.
    deepseek.script({ kind: 'json', status: 200, json: { object: 'list', data: [{ id: DEEPSEEK_MODEL }] } });
    const stored = await world.api('/provider-credentials', {
      method: 'POST',
      body: { provider: 'deepseek', api_key: PARTNER_DEEPSEEK_KEY },
    });
    expect(stored.status).toBe(200);
    deepseek.clear();
    deepseek.script(...replies());
    const agent = await world.agent({ model: { provider: 'deepseek', model: DEEPSEEK_MODEL } });
    const call = await world.dial('carrier_a', agent.id);
    await converse(call);
    // What is left of the script answers the analysis: nothing else is asked once the conversation is over.
    const conversation = rounds(deepseek).length;
    deepseek.script({ kind: 'reply', text: [ANALYSIS], usage: { inputTokens: 321, outputTokens: 45 } });
    await world.complete(call, Math.ceil(call.media.mediaMs / 1000));
    const done = await world.finished(call.callId);

    expect(rounds(deepseek)).toHaveLength(conversation);
    for (const r of deepseek.requests) {
      expect(r.headers.authorization).toBe(`Bearer ${PARTNER_DEEPSEEK_KEY}`);
      expect(r.body.model).toBe(DEEPSEEK_MODEL);
    }
    // The post-call analysis: one completion, not streamed, on the agent's model with the partner's key.
    expect(deepseek.requests.filter((r) => r.body.stream !== true)).toHaveLength(1);
    expect(done.session.analysis).toMatchObject({
      status: 'success',
      model: DEEPSEEK_MODEL,
      summary: 'The caller asked about an order.',
    });

    // Only the conversation's tokens: the analysis is post-call work, not the call's model use.
    const tokens = reported(conversation);
    const usage = [
      {
        provider: 'deepseek',
        model: DEEPSEEK_MODEL,
        paid_by: 'account',
        input_tokens: tokens.input,
        output_tokens: tokens.output,
        replies: botLines(done.session.transcript).filter((l) => l.providers?.llm === 'deepseek').length,
      },
    ];
    expect(done.model_usage).toEqual(usage);
    expect(lineTokens(done.session.transcript)).toEqual(tokens);
    const session = await sessionCompleted(call.callId);
    expect(session.model_usage).toEqual(usage);
    expect(session.analysis).toMatchObject({ status: 'success', model: DEEPSEEK_MODEL });
    const charge = await chargeOf(call.callId);
    // The partner's own key is never billed for the model: the charge is the minutes.
    expect(session.credits_used_paise).toBe(Math.ceil((session.bill_seconds * PRICE_PER_MINUTE_PAISE) / 60));
    expect(charge).toMatchObject({ amount_inr: -session.credits_used, model_usage: usage });
    finished.push(done);
  });

  it('sums the tokens in usage to the paisa of the ledger, the platform’s part apart', async () => {
    expect(finished).toHaveLength(2);
    const charges = await Promise.all(finished.map((c) => chargeOf(c.call_id)));
    const sum = (pick: (u: Any) => number, platformOnly = false) =>
      finished
        .flatMap((c) => c.model_usage)
        .filter((u: Any) => !platformOnly || u.paid_by === 'platform')
        .reduce((s: number, u: Any) => s + pick(u), 0);
    const from = encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString());
    const to = encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString());
    const res = await world.api(`/billing/usage?from=${from}&to=${to}&group_by=agent`);
    expect(res.status).toBe(200);
    const paise = charges.reduce((s, t) => s - Math.round(t.amount_inr * 100), 0);
    expect(res.body.data.totals).toMatchObject({
      calls: 2,
      credits_inr: paise / 100,
      billed_seconds: charges.reduce((s, t) => s + t.billed_seconds, 0),
      model_input_tokens: sum((u) => u.input_tokens),
      model_output_tokens: sum((u) => u.output_tokens),
      platform_model_input_tokens: sum((u) => u.input_tokens, true),
      platform_model_output_tokens: sum((u) => u.output_tokens, true),
    });
    expect(res.body.data.totals.platform_model_input_tokens).toBe(finished[0].model_usage[0].input_tokens);
    // Per agent: each bucket is its own call's.
    for (const call of finished) {
      const bucket = res.body.data.buckets.find((b: Any) => b.key === call.agent_id);
      const [use] = call.model_usage;
      expect(bucket).toMatchObject({
        calls: 1,
        model_input_tokens: use.input_tokens,
        model_output_tokens: use.output_tokens,
        platform_model_input_tokens: use.paid_by === 'platform' ? use.input_tokens : 0,
      });
    }
  });
});
