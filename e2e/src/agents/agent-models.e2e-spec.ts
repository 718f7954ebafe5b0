// An agent's model through the gateway, on a platform of the spec's own whose Groq API is a local server speaking
// the OpenAI-compatible protocol (@vap/llm/testing's fake: GET /v1/models answers the key check), which pays for
// OpenAI models for premium accounts only, and where a partner's model server may be on this machine (an HTTPS
// server trusted through the run's test CA): a model key is checked live, stored sealed and never returned; the
// catalog's availability follows the key; an agent is refused a model the account cannot use (the message names
// the key it needs), then accepted once the key is stored; each model's bounds are enforced; the record answers
// the model; a custom server's credential answers its signing secret once; agents.model.plan gives the call the
// key; and the call's copy of the agent carries the model (on the run's platform).
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { connect, NatsConnection, StringCodec } from 'nats';
import { FakeChatServer } from '@vap/llm/testing';
import { api, createPartner, e2eEnv, OwnPlatform, startOwnPlatform } from '../../support';
import { CallsPartner, callee } from '../calls/call-fixtures';
import { agentBody, fieldsOf, newPartner } from './agent-fixtures';
import { FunctionServer, signatureValid, startFunctionServer } from './function-server';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const GROQ_KEY = 'gsk-e2e-groq-good-0001';
const PLATFORM_OPENAI_KEY = 'sk-e2e-platform-openai-0002';
const SERVER_KEY = 'partner-model-server-0003';
const GROQ_MODEL = 'llama-3.3-70b-versatile';
const sc = StringCodec();

const modelOf = (provider: string, model: string, params: Record<string, unknown> = {}) => ({
  provider,
  model,
  ...params,
});

describe('agent models', () => {
  let own: OwnPlatform;
  let groq: FakeChatServer;
  let server: FunctionServer;
  let nats: NatsConnection;
  let baseUrl: string;

  beforeAll(async () => {
    groq = await FakeChatServer.start();
    server = await startFunctionServer();
    own = await startOwnPlatform({
      name: 'agent_models',
      services: ['agents'],
      env: {
        MODEL_GROQ_BASE_URL: groq.baseUrl,
        MODEL_OPENAI_API_KEY: PLATFORM_OPENAI_KEY,
        MODEL_OPENAI_TIERS: 'premium,enterprise',
        // Never contacted here: the plan only names where the platform's key goes.
        MODEL_OPENAI_BASE_URL: 'http://127.0.0.1:9/openai/v1',
        MODEL_KEY_CHECK_TIMEOUT_MS: '2000',
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        NODE_EXTRA_CA_CERTS: process.env.E2E_TLS_CA ?? '',
      },
    });
    baseUrl = own.platform.gatewayUrl;
    nats = await connect({ servers: e2eEnv().natsUrl, name: 'e2e-agent-models' });
  }, 150_000);

  afterAll(async () => {
    await nats?.close();
    await own?.stop();
    await groq?.close();
    await server?.close();
  });

  beforeEach(() => groq.clear());

  const partner = async (voice_tier = 'standard') => {
    const made = await createPartner({ voice_tier }, baseUrl);
    return { id: made.partner.id, key: made.apiKey };
  };
  const call = (key: string, path: string, init: { method?: string; body?: unknown } = {}) =>
    api(path, { key, baseUrl, ...init });
  const storeGroqKey = async (key: string) => {
    groq.script({ kind: 'json', status: 200, json: { object: 'list', data: [{ id: GROQ_MODEL }] } });
    const res = await call(key, '/provider-credentials', {
      method: 'POST',
      body: { provider: 'groq', api_key: GROQ_KEY },
    });
    expect(res.status).toBe(200);
    return res.body.data.provider_credential;
  };
  const models = async (key: string, query = ''): Promise<Any[]> => {
    const res = await call(key, `/models${query}`);
    expect(res.status).toBe(200);
    return res.body.data.models;
  };

  it('checks a model key live with the provider, stores it sealed and never returns it', async () => {
    const { key } = await partner();
    const stored = await storeGroqKey(key);
    expect(groq.requests.map((r) => [r.method, r.path, r.headers.authorization])).toEqual([
      ['GET', '/v1/models', `Bearer ${GROQ_KEY}`],
    ]);
    expect(stored).toEqual({
      id: expect.stringMatching(/^pcred_/),
      provider: 'groq',
      label: null,
      region: null,
      key_last4: '…0001',
      used_for: ['models'],
      base_url: null,
      status: 'active',
      checked_at: expect.any(String),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const list = await call(key, '/provider-credentials');
    expect(list.body.data.provider_credentials).toEqual([stored]);
    for (const body of [list.body, (await call(key, `/provider-credentials/${stored.id}`)).body])
      expect(JSON.stringify(body)).not.toContain(GROQ_KEY);
    const db = new Client({ connectionString: own.db.url });
    await db.connect();
    try {
      const { rows } = await db.query(
        `SELECT row_to_json(c)::text AS raw FROM agents.provider_credentials c WHERE id = $1`,
        [stored.id],
      );
      expect(rows[0].raw).not.toContain(GROQ_KEY);
    } finally {
      await db.end();
    }
  });

  it('refuses a key the provider refuses with 400 quoting it, and a key check nobody answers with 502', async () => {
    const { key } = await partner();
    groq.script({ kind: 'error', status: 401, message: 'Invalid API Key' });
    const refused = await call(key, '/provider-credentials', {
      method: 'POST',
      body: { provider: 'groq', api_key: 'gsk-e2e-wrong-key-9999' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual([
      { field: 'api_key', message: 'Groq refused the key: Invalid API Key' },
    ]);
    groq.script({ kind: 'silent' });
    const silent = await call(key, '/provider-credentials', {
      method: 'POST',
      body: { provider: 'groq', api_key: GROQ_KEY },
    });
    expect([silent.status, silent.body.error.code, silent.body.error.message]).toEqual([
      502,
      'INTERNAL_ERROR',
      expect.stringMatching(
        /^Groq did not answer the key check: no answer within 2000 ms; the key was not saved\. If this deployment cannot reach Groq, the platform operator must allow this deployment outbound HTTPS access to [^ ]+; otherwise try again in a moment$/,
      ),
    ]);
    expect((await call(key, '/provider-credentials')).body.data.provider_credentials).toEqual([]);
  });

  it('lists the catalog with the offline engine first, and its availability follows the account’s key', async () => {
    const { key } = await partner();
    const all = await models(key);
    expect(all[0]).toMatchObject({ provider: 'offline', model: 'offline', availability: 'offline' });
    const groqBefore = await models(key, '?provider=groq');
    expect(groqBefore.length).toBeGreaterThan(0);
    expect(groqBefore.every((m) => m.provider === 'groq' && m.availability === null)).toBe(true);
    expect(groqBefore[0].unavailable_reason).toBe(
      'This model needs a key for Groq on this account: store one with POST /provider-credentials ' +
        "(the platform offers no Groq key for this account's tier)",
    );
    expect((await models(key, '?available=true')).map((m) => m.provider)).toEqual(['offline']);

    const stored = await storeGroqKey(key);
    expect((await models(key, '?provider=groq')).every((m) => m.availability === 'account_key')).toBe(true);
    expect(new Set((await models(key, '?available=true')).map((m) => m.provider))).toEqual(
      new Set(['offline', 'groq']),
    );
    await call(key, `/provider-credentials/${stored.id}`, { method: 'DELETE' });
    expect((await models(key, '?provider=groq')).every((m) => m.availability === null)).toBe(true);

    for (const query of ['?provider=nope', '?available=maybe', '?extra=1']) {
      const res = await call(key, `/models${query}`);
      expect([query, res.status, res.body.error?.code]).toEqual([query, 400, 'VALIDATION_ERROR']);
    }
  });

  it('offers the platform’s key by tier: premium accounts use OpenAI models, standard ones are told what to do', async () => {
    const standard = await partner('standard');
    const premium = await partner('premium');
    const body = agentBody({ model: modelOf('openai', 'gpt-4o-mini') });
    const refused = await call(standard.key, '/agent', { method: 'POST', body });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual([
      {
        field: 'model.provider',
        message:
          'model needs a key for OpenAI on this account: store one with POST /provider-credentials ' +
          "(the platform offers no OpenAI key for this account's tier)",
      },
    ]);
    const made = await call(premium.key, '/agent', { method: 'POST', body });
    expect(made.status).toBe(200);
    expect((await models(premium.key, '?provider=openai'))[0].availability).toBe('platform');
  });

  it('refuses an agent a model without a key, naming the key, then takes it and answers it', async () => {
    const { key, id } = await partner();
    const chosen = modelOf('groq', GROQ_MODEL, { temperature: 0.4, max_tokens: 300 });
    const refused = await call(key, '/agent', {
      method: 'POST',
      body: agentBody({ model: modelOf('offline', 'offline'), fallback_models: [chosen] }),
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual([
      {
        field: 'fallback_models.0.provider',
        message:
          'fallback_models[0] needs a key for Groq on this account: store one with POST /provider-credentials ' +
          "(the platform offers no Groq key for this account's tier)",
      },
    ]);

    await storeGroqKey(key);
    const made = await call(key, '/agent', { method: 'POST', body: agentBody({ model: chosen }) });
    expect(made.status).toBe(200);
    const expected = {
      model: {
        provider: 'groq',
        model: GROQ_MODEL,
        temperature: 0.4,
        max_tokens: 300,
        top_p: null,
        voice: null,
      },
      fallback_models: [],
    };
    expect(made.body.data).toMatchObject(expected);
    const read = await call(key, `/agent/${made.body.data.id}`);
    expect(read.body.data).toMatchObject(expected);

    // The call's plan: the agent's model on the account's key, as voice asks when the media starts.
    const msg = await nats.request(
      `${own.prefix}.agents.model.plan`,
      sc.encode(
        JSON.stringify({
          partnerId: id,
          requestId: `e2e-${randomUUID()}`,
          data: {
            callId: randomUUID(),
            model: { provider: 'groq', model: GROQ_MODEL, temperature: 0.4, maxTokens: 300 },
            fallbackModels: [{ provider: 'offline', model: 'offline' }],
          },
        }),
      ),
      { timeout: 10_000 },
    );
    const plan = JSON.parse(sc.decode(msg.data));
    expect(plan.ok).toBe(true);
    expect(plan.data).toEqual({
      models: [
        {
          provider: 'groq',
          model: GROQ_MODEL,
          temperature: 0.4,
          maxTokens: 300,
          speechToSpeech: false,
          credential: { provider: 'groq', apiKey: GROQ_KEY, baseUrl: groq.baseUrl, paidBy: 'account' },
        },
        { provider: 'offline', model: 'offline', speechToSpeech: false },
      ],
    });
  });

  it('replaces the model whole on update, clears it with null, and keeps it while other fields change', async () => {
    const { key } = await partner();
    const stored = await storeGroqKey(key);
    const made = await call(key, '/agent', {
      method: 'POST',
      body: agentBody({
        model: modelOf('groq', GROQ_MODEL),
        fallback_models: [modelOf('offline', 'offline')],
      }),
    });
    const id = made.body.data.id;
    // The key goes; the agent keeps the model it has while other fields change.
    await call(key, `/provider-credentials/${stored.id}`, { method: 'DELETE' });
    const renamed = await call(key, `/agent/${id}`, { method: 'PUT', body: { prompt: 'Be brief.' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.model).toMatchObject({ provider: 'groq', model: GROQ_MODEL });
    // Choosing it again needs no key (it is the agent's); another Groq model does.
    const other = await call(key, `/agent/${id}`, {
      method: 'PUT',
      body: { model: modelOf('groq', 'llama-3.1-8b-instant') },
    });
    expect(fieldsOf(other.body)).toEqual(['model.provider']);
    const cleared = await call(key, `/agent/${id}`, {
      method: 'PUT',
      body: { model: null, fallback_models: null },
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data).toMatchObject({ model: null, fallback_models: [] });
  });

  describe('refuses with 400 naming the field', () => {
    let key: string;
    beforeAll(async () => {
      ({ key } = await partner());
      await storeGroqKey(key);
    });

    const cases: [string, Record<string, unknown>, string, RegExp][] = [
      ['an unknown provider', { model: modelOf('gpt', 'x') }, 'model.provider', /must be one of/],
      ['no model id', { model: { provider: 'groq' } }, 'model.model', /model is required/],
      [
        'a malformed model id',
        { model: modelOf('groq', 'has spaces') },
        'model.model',
        /model must be a model id/,
      ],
      [
        'a model the provider does not offer',
        { model: modelOf('groq', 'gpt-4o') },
        'model.model',
        /not a model of Groq/,
      ],
      [
        'a temperature out of every bound',
        { model: modelOf('groq', GROQ_MODEL, { temperature: 3 }) },
        'model.temperature',
        /from 0 to 2/,
      ],
      [
        'max_tokens above the model’s own limit',
        { model: modelOf('groq', 'llama-3.1-8b-instant', { max_tokens: 8193 }) },
        'model.max_tokens',
        /at most 8192 for llama-3.1-8b-instant/,
      ],
      [
        'max_tokens zero',
        { model: modelOf('groq', GROQ_MODEL, { max_tokens: 0 }) },
        'model.max_tokens',
        /at least 1/,
      ],
      ['top_p above 1', { model: modelOf('groq', GROQ_MODEL, { top_p: 1.5 }) }, 'model.top_p', /from 0 to 1/],
      [
        'a voice on a model that does not speak',
        { model: modelOf('groq', GROQ_MODEL, { voice: 'alloy' }) },
        'model.voice',
        /only to speech-to-speech models/,
      ],
      [
        'a fallback without a model',
        { fallback_models: [modelOf('offline', 'offline')] },
        'fallback_models',
        /needs a model to back up/,
      ],
      [
        'the model as its own fallback',
        {
          model: modelOf('groq', GROQ_MODEL),
          fallback_models: [modelOf('groq', GROQ_MODEL, { temperature: 1 })],
        },
        'fallback_models.0.model',
        /the agent's own model/,
      ],
      [
        'more than 3 fallbacks',
        {
          model: modelOf('offline', 'offline'),
          fallback_models: [
            modelOf('groq', GROQ_MODEL),
            modelOf('groq', 'llama-3.1-8b-instant'),
            modelOf('groq', 'openai/gpt-oss-20b'),
            modelOf('groq', 'openai/gpt-oss-120b'),
          ],
        },
        'fallback_models',
        /at most 3/,
      ],
      [
        'the offline engine under another name',
        { model: modelOf('offline', 'gpt') },
        'model.model',
        /must be offline/,
      ],
    ];

    it.each(cases)('%s', async (_title, fields, field, message) => {
      const res = await call(key, '/agent', { method: 'POST', body: agentBody(fields) });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(fieldsOf(res.body)).toEqual([field]);
      expect(res.body.error.details[0].message).toMatch(message);
    });
  });

  it('stores a custom model server: checked with a signed request, its signing secret answered once', async () => {
    const { key, id } = await partner();
    server.answer('/v1/models', { status: 404, body: '{"error":"no model listing"}' });
    const before = server.requests.length;
    const made = await call(key, '/provider-credentials', {
      method: 'POST',
      body: { provider: 'custom', base_url: `${server.url}/v1`, api_key: SERVER_KEY },
    });
    expect([made.status, made.body.error]).toEqual([200, undefined]);
    const credential = made.body.data.provider_credential;
    expect(credential).toMatchObject({
      provider: 'custom',
      base_url: `${server.url}/v1`,
      key_last4: '…0003',
      used_for: ['models'],
      signing_secret: expect.stringMatching(/^mssec_/),
    });
    const [check] = server.requests.slice(before);
    expect([check.method, check.url, check.headers.authorization]).toEqual([
      'GET',
      '/v1/models',
      `Bearer ${SERVER_KEY}`,
    ]);
    expect(signatureValid(check, credential.signing_secret)).toBe(true);
    const read = await call(key, `/provider-credentials/${credential.id}`);
    expect(read.body.data.provider_credential).not.toHaveProperty('signing_secret');
    expect(JSON.stringify((await call(key, '/provider-credentials')).body)).not.toContain(
      credential.signing_secret,
    );

    // An agent may now think with the server's models, under any id of the right shape.
    const agent = await call(key, '/agent', {
      method: 'POST',
      body: agentBody({ model: modelOf('custom', 'acme/llama-70b') }),
    });
    expect(agent.status).toBe(200);
    const msg = await nats.request(
      `${own.prefix}.agents.model.plan`,
      sc.encode(
        JSON.stringify({
          partnerId: id,
          requestId: `e2e-${randomUUID()}`,
          data: { model: { provider: 'custom', model: 'acme/llama-70b' }, fallbackModels: [] },
        }),
      ),
      { timeout: 10_000 },
    );
    expect(JSON.parse(sc.decode(msg.data)).data.models[0].credential).toEqual({
      provider: 'custom',
      apiKey: SERVER_KEY,
      baseUrl: `${server.url}/v1`,
      paidBy: 'account',
      signingSecret: credential.signing_secret,
    });

    // A plain HTTP server and a provider that may not name a URL are refused before anything is sent.
    const checks = server.requests.length;
    for (const body of [
      { provider: 'custom', base_url: 'http://models.example.com/v1' },
      { provider: 'custom' },
      { provider: 'groq', api_key: GROQ_KEY, base_url: `${server.url}/v1` },
    ]) {
      const res = await call(key, '/provider-credentials', { method: 'POST', body });
      expect([res.status, fieldsOf(res.body)]).toEqual([400, ['base_url']]);
    }
    expect(server.requests.length).toBe(checks);
  });

  it("reaches the call's copy of the agent", async () => {
    // The run's platform: offline engine as the model, which needs no key.
    const callsPartner = await CallsPartner.create();
    const agent: Any = await callsPartner.createAgent({
      model: modelOf('offline', 'offline', { temperature: 0.2 }),
    });
    expect(agent.model).toEqual({
      provider: 'offline',
      model: 'offline',
      temperature: 0.2,
      max_tokens: null,
      top_p: null,
      voice: null,
    });
    const started = await callsPartner.start({ agent_id: agent.id, to_number: callee('57') });
    expect(started.status).toBe(200);
    const db = new Client({ connectionString: e2eEnv().databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query('SELECT agent_settings FROM calls.calls WHERE id = $1', [
        started.body.data.call_id,
      ]);
      expect(rows[0].agent_settings).toMatchObject({
        model: { provider: 'offline', model: 'offline', temperature: 0.2 },
        fallbackModels: [],
      });
    } finally {
      await db.end();
    }
  });

  it('keeps the contract of the run’s platform: a fresh agent has no model', async () => {
    const { key } = await newPartner();
    const res = await api('/agent', { method: 'POST', key, body: agentBody() });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ model: null, fallback_models: [] });
  });
});
