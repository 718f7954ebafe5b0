// Model keys against a real Postgres and local servers speaking the providers' public protocols (the
// OpenAI-compatible fake of @vap/llm/testing answers Groq's, Azure OpenAI's and a partner model server's key
// checks): a model key is checked live where the platform sends it, sealed and never returned; Azure OpenAI keys
// name their resource; a custom model server is checked with a signed request, its signing secret shown once and
// renewed when it moves to another origin (its key never carried there unasked); the catalog's availability
// follows the account's keys and tier; and agents.model.plan gives each of an agent's models the key it runs on.
import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AppError, ErrorCode, ModelPlanRequest } from '@vap/messages';
import { partnerRequestSignature } from '@vap/egress';
import { FakeChatServer } from '@vap/llm/testing';
import { runMigrations } from '@vap/persistence';
import { validateConfig } from '@vap/runtime';
import { createTestDatabase, TestDatabase } from '@vap/testing';
import { AgentsConfig } from '../config/agents.config';
import { CustomFunctionsConfig } from '../config/custom-functions.config';
import { KnowledgeConfig } from '../config/knowledge.config';
import { ModelsConfig } from '../config/models.config';
import { SpeechConfig } from '../config/speech.config';
import { agentsDataSourceOptions } from '../database/data-source';
import { ModelAccess } from './model-access';
import { ModelCatalogService } from './model-catalog.service';
import { ModelDeployment } from './model-deployment';
import { ModelPlanService } from './model-plan.service';
import { ProviderCredentialsService } from './provider-credentials.service';
import { ProviderKeyChecker } from './provider-key-check';
import { ProviderKeySealer } from './provider-key-sealer';
import { SpeechDeployment } from './speech-deployment';

jest.setTimeout(30_000);

const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const GROQ_KEY = 'gsk-test-groq-key-0001';
const OPENAI_KEY = 'sk-test-openai-key-0002';
const AZURE_KEY = 'azure-test-key-00000003';
const SERVER_KEY = 'partner-server-key-0004';
const PLATFORM_OPENAI_KEY = 'sk-platform-openai-9999';
const PLATFORM_ANTHROPIC_KEY = 'sk-ant-platform-8888';
/** Where the platform sends Anthropic requests in this deployment (never contacted here). */
const ANTHROPIC_URL = 'http://127.0.0.1:9/anthropic';
/** Where the platform sends OpenAI model requests in this deployment (never contacted here). */
const OPENAI_MODELS_URL = 'http://127.0.0.1:9/openai-models/v1';

const ok = { kind: 'json', status: 200, json: { object: 'list', data: [] } } as const;
const refused = (message: string) => ({ kind: 'error', status: 401, message }) as const;

/** What the service threw, as an AppError (fails the test when it resolved). */
async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof AppError)) throw new Error(`expected an AppError, got ${String(err)}`);
  return err;
}

describe('model credentials, the catalog and the model plan', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  let fake: FakeChatServer;
  let elsewhere: FakeChatServer;
  const secretsKey = randomBytes(32).toString('hex');

  function services(modelEnv: Record<string, string>, allowPrivateNetworks = true) {
    const agents = Object.assign(new AgentsConfig(), { NODE_ENV: 'test', DATABASE_URL: db.url });
    const speech = new SpeechDeployment(
      validateConfig(SpeechConfig, {
        SPEECH_OPENAI_BASE_URL: fake.baseUrl,
        SPEECH_KEY_CHECK_TIMEOUT_MS: '2000',
      }),
      agents,
    );
    const models = new ModelDeployment(
      validateConfig(ModelsConfig, modelEnv),
      Object.assign(new KnowledgeConfig(), { WEBHOOK_ALLOW_PRIVATE_NETWORKS: allowPrivateNetworks }),
    );
    const sealer = new ProviderKeySealer(
      Object.assign(new CustomFunctionsConfig(), { SECRETS_KEY: secretsKey }),
    );
    const credentials = new ProviderCredentialsService(
      dataSource,
      new ProviderKeyChecker(speech, models),
      sealer,
      models,
    );
    return {
      credentials,
      catalog: new ModelCatalogService(new ModelAccess(credentials, models)),
      plans: new ModelPlanService(credentials, models),
    };
  }
  let credentials: ProviderCredentialsService;
  let catalog: ModelCatalogService;
  let plans: ModelPlanService;

  beforeAll(async () => {
    fake = await FakeChatServer.start();
    elsewhere = await FakeChatServer.start();
    db = await createTestDatabase(SERVER_URL, 'vap_model_credentials');
    const options = agentsDataSourceOptions(Object.assign(new AgentsConfig(), { DATABASE_URL: db.url }));
    await runMigrations(options);
    dataSource = await new DataSource(options).initialize();
    ({ credentials, catalog, plans } = services({
      MODEL_GROQ_BASE_URL: fake.baseUrl,
      MODEL_AZURE_OPENAI_BASE_URL: `${fake.rootUrl}/{region}`,
      MODEL_OPENAI_BASE_URL: OPENAI_MODELS_URL,
      MODEL_OPENAI_API_KEY: PLATFORM_OPENAI_KEY,
      MODEL_OPENAI_TIERS: 'premium,enterprise',
      MODEL_ANTHROPIC_API_KEY: PLATFORM_ANTHROPIC_KEY,
      MODEL_ANTHROPIC_BASE_URL: ANTHROPIC_URL,
      MODEL_KEY_CHECK_TIMEOUT_MS: '1000',
    }));
  });

  beforeEach(() => {
    fake.clear();
    elsewhere.clear();
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
    await fake?.close();
    await elsewhere?.close();
  });

  /** A stored row as Postgres has it, every column as text. */
  const rawRow = async (id: string): Promise<string> =>
    (
      await dataSource.query(
        `SELECT row_to_json(c)::text AS raw FROM agents.provider_credentials c WHERE id = $1`,
        [id],
      )
    )[0].raw;

  describe('a cloud model key', () => {
    it('is checked live at the platform’s base URL for the provider, stored sealed and answered masked', async () => {
      const partner = randomUUID();
      fake.script(ok);
      const { provider_credential: made } = await credentials.create(partner, {
        provider: 'groq',
        api_key: GROQ_KEY,
      });
      expect(fake.requests.map((r) => [r.method, r.path, r.headers.authorization])).toEqual([
        ['GET', '/v1/models', `Bearer ${GROQ_KEY}`],
      ]);
      expect(made).toEqual({
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
      expect(JSON.stringify(made)).not.toContain(GROQ_KEY);
      expect(await rawRow(made.id)).not.toContain(GROQ_KEY);
      expect((await credentials.list(partner)).provider_credentials).toEqual([made]);
    });

    it('is refused with 400 quoting the provider when it refuses the key, and nothing is saved', async () => {
      const partner = randomUUID();
      fake.script(refused('Invalid API Key'));
      const err = await refusal(
        credentials.create(partner, { provider: 'groq', api_key: 'gsk-wrong-key-1234' }),
      );
      expect([err.status, err.details]).toEqual([
        400,
        [{ field: 'api_key', message: 'Groq refused the key: Invalid API Key' }],
      ]);
      expect((await credentials.list(partner)).provider_credentials).toEqual([]);
    });

    it('is a 502 naming the provider when it does not answer within the deadline', async () => {
      const partner = randomUUID();
      fake.script({ kind: 'silent' });
      const err = await refusal(credentials.create(partner, { provider: 'groq', api_key: GROQ_KEY }));
      expect([err.status, err.code, err.message]).toEqual([
        502,
        ErrorCode.INTERNAL_ERROR,
        expect.stringMatching(
          /^Groq did not answer the key check: no answer within 1000 ms; the key was not saved\. If this deployment cannot reach Groq, the platform operator must allow this deployment outbound HTTPS access to 127\.0\.0\.1:\d+; otherwise try again in a moment$/,
        ),
      ]);
      expect((await credentials.list(partner)).provider_credentials).toEqual([]);
    });

    it('an openai key is checked once and serves speech and models', async () => {
      fake.script(ok);
      const { provider_credential: made } = await credentials.create(randomUUID(), {
        provider: 'openai',
        api_key: OPENAI_KEY,
      });
      expect(fake.requests.map((r) => r.headers.authorization)).toEqual([`Bearer ${OPENAI_KEY}`]);
      expect(made.used_for).toEqual(['speech', 'models']);
    });

    it('Azure OpenAI keys name their resource: required, of a resource’s form, and the check goes to it', async () => {
      const partner = randomUUID();
      const missing = await refusal(
        credentials.create(partner, { provider: 'azure_openai', api_key: AZURE_KEY }),
      );
      expect(missing.details).toEqual([
        {
          field: 'region',
          message:
            "region is required for Azure OpenAI keys: the name of the key's resource, as in https://{resource}.openai.azure.com",
        },
      ]);
      const malformed = await refusal(
        credentials.create(partner, { provider: 'azure_openai', api_key: AZURE_KEY, region: '-acme' }),
      );
      expect(malformed.details?.[0].field).toBe('region');
      expect(fake.requests).toEqual([]);

      fake.script(ok);
      const { provider_credential: made } = await credentials.create(partner, {
        provider: 'azure_openai',
        api_key: AZURE_KEY,
        region: 'acme-openai',
      });
      expect(made).toMatchObject({ provider: 'azure_openai', region: 'acme-openai', used_for: ['models'] });
      expect(fake.requests.map((r) => [r.path, r.query, r.headers['api-key']])).toEqual([
        ['/acme-openai/openai/models', { 'api-version': '2024-10-21' }, AZURE_KEY],
      ]);
    });

    it('takes no base_url: the platform decides where a provider’s keys go', async () => {
      const err = await refusal(
        credentials.create(randomUUID(), {
          provider: 'groq',
          api_key: GROQ_KEY,
          base_url: 'https://attacker.example/v1',
        }),
      );
      expect(err.details).toEqual([
        {
          field: 'base_url',
          message:
            'base_url applies only to provider custom: the platform decides where a provider’s keys are sent',
        },
      ]);
      expect(fake.requests).toEqual([]);
    });
  });

  describe('a custom model server', () => {
    /** The request is signed with the secret the partner got: x-vap-signature over "<timestamp>.<raw body>". */
    const signedWith = (secret: string, request: (typeof fake.requests)[number]) =>
      request.headers['x-vap-signature'] ===
      partnerRequestSignature(secret, String(request.headers['x-vap-timestamp']), request.raw);

    it('is checked with a signed request to its /models, and answers its signing secret once', async () => {
      const partner = randomUUID();
      fake.script(ok);
      const { provider_credential: made } = await credentials.create(partner, {
        provider: 'custom',
        base_url: fake.baseUrl,
        api_key: SERVER_KEY,
        label: 'Our model server',
      });
      expect(made).toMatchObject({
        provider: 'custom',
        base_url: fake.baseUrl,
        key_last4: '…0004',
        used_for: ['models'],
        signing_secret: expect.stringMatching(/^mssec_/),
      });
      const [check] = fake.requests;
      expect([check.method, check.path, check.headers.authorization]).toEqual([
        'GET',
        '/v1/models',
        `Bearer ${SERVER_KEY}`,
      ]);
      expect(signedWith(made.signing_secret!, check)).toBe(true);
      // Shown once: reads never carry it; at rest it is sealed.
      const read = (await credentials.get(partner, made.id)).provider_credential;
      expect(read).not.toHaveProperty('signing_secret');
      expect(JSON.stringify(await credentials.list(partner))).not.toContain(made.signing_secret);
      const raw = await rawRow(made.id);
      expect(raw).not.toContain(made.signing_secret);
      expect(raw).not.toContain(SERVER_KEY);
    });

    it('takes no key at all, and is refused when the server refuses the check', async () => {
      fake.script(ok);
      const keyless = (
        await credentials.create(randomUUID(), { provider: 'custom', base_url: `${fake.baseUrl}/` })
      ).provider_credential;
      expect(keyless.key_last4).toBeNull();
      expect(fake.last.headers.authorization).toBeUndefined();

      fake.script({ kind: 'error', status: 403, message: 'bad signature' });
      const err = await refusal(
        credentials.create(randomUUID(), { provider: 'custom', base_url: fake.baseUrl }),
      );
      expect(err.details).toEqual([
        { field: 'api_key', message: 'The model server refused the key: bad signature' },
      ]);
    });

    it('is refused a private host where the deployment does not allow one, before anything is sent', async () => {
      const strict = services({}, false).credentials;
      for (const url of [fake.baseUrl, 'https://localhost/v1', 'https://10.0.0.8/v1']) {
        const err = await refusal(strict.create(randomUUID(), { provider: 'custom', base_url: url }));
        expect(err.details).toEqual([{ field: 'base_url', message: 'base_url must name a public host' }]);
      }
      expect(fake.requests).toEqual([]);
    });

    it('keeps its key and secret on the same origin; moved elsewhere it needs the key again and gets a new secret', async () => {
      const partner = randomUUID();
      fake.script(ok, ok);
      const made = (
        await credentials.create(partner, { provider: 'custom', base_url: fake.baseUrl, api_key: SERVER_KEY })
      ).provider_credential;
      // Another path on the same origin: the stored key and secret go on, no new secret is answered.
      const samePlace = (await credentials.rotate(partner, made.id, { base_url: `${fake.rootUrl}/v2` }))
        .provider_credential;
      expect(samePlace).toMatchObject({ base_url: `${fake.rootUrl}/v2`, key_last4: '…0004' });
      expect(samePlace).not.toHaveProperty('signing_secret');
      expect(fake.last.path).toBe('/v2/models');
      expect(fake.last.headers.authorization).toBe(`Bearer ${SERVER_KEY}`);
      expect(signedWith(made.signing_secret!, fake.last)).toBe(true);

      // Another origin without the key: refused, nothing sent there.
      const unasked = await refusal(credentials.rotate(partner, made.id, { base_url: elsewhere.baseUrl }));
      expect(unasked.details?.[0]).toEqual({
        field: 'api_key',
        message: expect.stringMatching(
          /^api_key must be sent again \(or null for none\) to move the model server to /,
        ),
      });
      expect(elsewhere.requests).toEqual([]);

      // With the key dropped: a new secret, answered once, signs the check there; the old one signs nothing.
      elsewhere.script(ok);
      const moved = (
        await credentials.rotate(partner, made.id, { base_url: elsewhere.baseUrl, api_key: null })
      ).provider_credential;
      expect(moved).toMatchObject({ base_url: elsewhere.baseUrl, key_last4: null });
      expect(moved.signing_secret).toMatch(/^mssec_/);
      expect(moved.signing_secret).not.toBe(made.signing_secret);
      const [check] = elsewhere.requests;
      expect(check.headers.authorization).toBeUndefined();
      expect(signedWith(moved.signing_secret!, check)).toBe(true);
      expect(signedWith(made.signing_secret!, check)).toBe(false);
    });

    it('a provider key’s rotation still needs a key', async () => {
      const partner = randomUUID();
      fake.script(ok);
      const made = (await credentials.create(partner, { provider: 'groq', api_key: GROQ_KEY }))
        .provider_credential;
      const err = await refusal(credentials.rotate(partner, made.id, {}));
      expect(err.details).toEqual([{ field: 'api_key', message: 'api_key is required' }]);
    });
  });

  describe('the catalog', () => {
    it('lists the offline engine first, then each provider’s models with how this account can use them', async () => {
      const partner = randomUUID();
      const { models } = await catalog.list(partner, 'standard', {});
      expect(models[0]).toMatchObject({
        provider: 'offline',
        model: 'offline',
        any_model: false,
        availability: 'offline',
        unavailable_reason: null,
      });
      const byModel = new Map(models.map((m) => [`${m.provider}:${m.model}`, m]));
      // The platform's OpenAI key serves premium accounts only; its Anthropic key every tier.
      expect(byModel.get('openai:gpt-4o-mini')).toMatchObject({
        provider_label: 'OpenAI',
        availability: null,
        unavailable_reason:
          'This model needs a key for OpenAI on this account: store one with POST /provider-credentials ' +
          "(the platform offers no OpenAI key for this account's tier)",
        parameters: { temperature_min: 0, temperature_max: 2, max_tokens_max: 16_384 },
        capabilities: { tools: true, streaming: true, speech_to_speech: false, languages: [] },
      });
      expect(byModel.get('openai:gpt-realtime')).toMatchObject({
        capabilities: expect.objectContaining({ speech_to_speech: true }),
        voices: expect.arrayContaining(['alloy', 'marin']),
      });
      expect(byModel.get('azure_openai:gpt-4o-mini')).toMatchObject({ any_model: true, availability: null });
      expect(byModel.get('custom:default')).toMatchObject({
        any_model: true,
        availability: null,
        unavailable_reason:
          "This model needs this account's own model server: store it with POST /provider-credentials " +
          '(provider custom, with its base_url)',
      });
      const premium = await catalog.list(partner, 'premium', { provider: 'openai' });
      expect(new Set(premium.models.map((m) => `${m.provider}:${m.availability}`))).toEqual(
        new Set(['openai:platform']),
      );
    });

    it('follows the account’s keys, and filters to what it can use', async () => {
      const partner = randomUUID();
      const groq = async () => (await catalog.list(partner, 'standard', { provider: 'groq' })).models;
      expect((await groq()).every((m) => m.availability === null)).toBe(true);
      fake.script(ok);
      const made = (await credentials.create(partner, { provider: 'groq', api_key: GROQ_KEY }))
        .provider_credential;
      expect((await groq()).every((m) => m.availability === 'account_key')).toBe(true);
      const usable = await catalog.list(partner, 'standard', { available: true });
      expect(usable.models.every((m) => m.availability !== null)).toBe(true);
      const providers = usable.models.map((m) => m.provider);
      expect(providers).toEqual(expect.arrayContaining(['offline', 'groq']));
      // OpenAI: the platform's key serves premium accounts only; custom: no server of its own.
      expect(providers).not.toContain('openai');
      expect(providers).not.toContain('custom');
      await credentials.remove(partner, made.id);
      expect((await groq()).every((m) => m.availability === null)).toBe(true);
    });
  });

  describe('the model plan of a call', () => {
    const request = (models: ModelPlanRequest['fallbackModels']): ModelPlanRequest => ({
      callId: randomUUID(),
      model: models[0] ?? null,
      fallbackModels: models.slice(1),
    });

    it('gives each model the account’s key, else the platform’s for the tier, and leaves out those with none', async () => {
      const partner = randomUUID();
      fake.script(ok, ok);
      await credentials.create(partner, { provider: 'groq', api_key: GROQ_KEY });
      await credentials.create(partner, { provider: 'openai', api_key: OPENAI_KEY });
      const chosen = request([
        { provider: 'groq', model: 'llama-3.3-70b-versatile', temperature: 0.3, maxTokens: 200 },
        { provider: 'anthropic', model: 'claude-3-5-haiku-latest' },
        { provider: 'mistral', model: 'mistral-small-latest' },
        { provider: 'openai', model: 'gpt-4o-mini', topP: 0.9 },
        { provider: 'offline', model: 'offline' },
      ]);
      const plan = await plans.plan(partner, 'standard', chosen);
      expect(plan.models).toEqual([
        {
          provider: 'groq',
          model: 'llama-3.3-70b-versatile',
          temperature: 0.3,
          maxTokens: 200,
          speechToSpeech: false,
          credential: { provider: 'groq', apiKey: GROQ_KEY, baseUrl: fake.baseUrl, paidBy: 'account' },
        },
        {
          provider: 'anthropic',
          model: 'claude-3-5-haiku-latest',
          speechToSpeech: false,
          credential: {
            provider: 'anthropic',
            apiKey: PLATFORM_ANTHROPIC_KEY,
            baseUrl: ANTHROPIC_URL,
            paidBy: 'platform',
          },
        },
        // Mistral: no key anywhere, left out.
        {
          provider: 'openai',
          model: 'gpt-4o-mini',
          topP: 0.9,
          speechToSpeech: false,
          // The account's OpenAI key, sent where the platform sends model requests (not its speech base).
          credential: {
            provider: 'openai',
            apiKey: OPENAI_KEY,
            baseUrl: OPENAI_MODELS_URL,
            paidBy: 'account',
          },
        },
        { provider: 'offline', model: 'offline', speechToSpeech: false },
      ]);
    });

    it('runs a custom model on the account’s server with its key and signing secret, and says speech-to-speech', async () => {
      const partner = randomUUID();
      fake.script(ok);
      const server = (
        await credentials.create(partner, { provider: 'custom', base_url: fake.baseUrl, api_key: SERVER_KEY })
      ).provider_credential;
      const plan = await plans.plan(
        partner,
        'premium',
        request([
          { provider: 'custom', model: 'acme-70b' },
          { provider: 'openai', model: 'gpt-realtime', voice: 'marin' },
        ]),
      );
      expect(plan.models).toEqual([
        {
          provider: 'custom',
          model: 'acme-70b',
          speechToSpeech: false,
          credential: {
            provider: 'custom',
            apiKey: SERVER_KEY,
            baseUrl: fake.baseUrl,
            paidBy: 'account',
            signingSecret: server.signing_secret,
          },
        },
        {
          provider: 'openai',
          model: 'gpt-realtime',
          voice: 'marin',
          speechToSpeech: true,
          credential: {
            provider: 'openai',
            apiKey: PLATFORM_OPENAI_KEY,
            baseUrl: OPENAI_MODELS_URL,
            paidBy: 'platform',
          },
        },
      ]);
    });

    it('is empty for an agent that chose no model, or whose models nobody has a key for any more', async () => {
      const partner = randomUUID();
      expect(await plans.plan(partner, 'standard', request([]))).toEqual({ models: [] });
      expect(await plans.plan(partner, 'standard', { model: null } as unknown as ModelPlanRequest)).toEqual({
        models: [],
      });
      expect(
        await plans.plan(
          partner,
          'standard',
          request([{ provider: 'groq', model: 'llama-3.3-70b-versatile' }]),
        ),
      ).toEqual({ models: [] });
    });

    it('unseals the asking account’s keys only', async () => {
      const owner = randomUUID();
      const other = randomUUID();
      fake.script(ok);
      await credentials.create(owner, { provider: 'groq', api_key: GROQ_KEY });
      const theirs = await plans.plan(
        other,
        'standard',
        request([{ provider: 'groq', model: 'llama-3.1-8b-instant' }]),
      );
      expect(theirs).toEqual({ models: [] });
      expect(JSON.stringify(theirs)).not.toContain(GROQ_KEY);
    });
  });
});
