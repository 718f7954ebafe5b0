// Provider credentials against a real Postgres and a local server answering OpenAI's key check: the live check
// and its refusals, sealing at rest, masking, tenancy, rotation and deletion; the catalog an account sees and the
// voices its agents may take; and the speech plan of a call with the right account's key unsealed, on the tier the
// partner events gave when voice asks without a partner snapshot.
import { randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { DataSource } from 'typeorm';
import { PartnerDto } from '@vap/api';
import { AppError, DomainEvents, ErrorCode, PartnerContext, SpeechPlanRequest } from '@vap/messages';
import { runMigrations } from '@vap/persistence';
import { validateConfig } from '@vap/runtime';
import { createTestDatabase, sendJson, StartedFakeServer, startFakeServer, TestDatabase } from '@vap/testing';
import { AgentsConfig } from '../config/agents.config';
import { CustomFunctionsConfig } from '../config/custom-functions.config';
import { KnowledgeConfig } from '../config/knowledge.config';
import { ModelsConfig } from '../config/models.config';
import { SpeechConfig } from '../config/speech.config';
import { agentsDataSourceOptions } from '../database/data-source';
import { PartnerEventsConsumer } from '../partners/partner-events.consumer';
import { PartnerTiers } from '../partners/partner-tiers';
import { Dictionary } from '../dictionaries/entities/dictionary.entity';
import { Voice } from '../voices/entities/voice.entity';
import { VoicesService } from '../voices/voices.service';
import { ProviderCredential } from './entities/provider-credential.entity';
import { ModelAccess } from './model-access';
import { ModelCatalogService } from './model-catalog.service';
import { ModelDeployment } from './model-deployment';
import { ModelPlanService } from './model-plan.service';
import { ProviderCredentialsHandlers } from './provider-credentials.handlers';
import { ProviderCredentialsService } from './provider-credentials.service';
import { ProviderKeyChecker } from './provider-key-check';
import { ProviderKeySealer } from './provider-key-sealer';
import { SpeechAccess } from './speech-access';
import { SpeechDeployment } from './speech-deployment';
import { SpeechKeys } from './speech-keys';
import { SpeechPlanService } from './speech-plan.service';

jest.setTimeout(30_000);

const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const GOOD_KEY = 'sk-test-good-key-0001';
const OTHER_GOOD_KEY = 'sk-test-good-key-0002';
const PLATFORM_ELEVENLABS_KEY = 'platform-elevenlabs-key-9999';
/** Seeded premium ElevenLabs voice (Priya) and standard Sarvam voice (Anushka). */
const ELEVENLABS_VOICE = '254b0c4e-010c-4759-882c-9cbc43435cc5';
const SARVAM_VOICE = 'd17f9aca-e01f-4057-8a02-135e92b1d3f2';

/** A port nothing listens on: a provider that does not answer. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** What the service threw, as an AppError (fails the test when it resolved). */
async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof AppError)) throw new Error(`expected an AppError, got ${String(err)}`);
  return err;
}

describe('provider credentials', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  let openai: StartedFakeServer;
  let service: ProviderCredentialsService;
  let voices: VoicesService;
  let plans: SpeechPlanService;
  let models: ModelDeployment;
  const checks: string[] = [];
  let openaiVoice: string;
  let retiredOpenaiVoice: string;

  function services(env: Record<string, string>) {
    const agentsConfig = Object.assign(new AgentsConfig(), { NODE_ENV: 'test', DATABASE_URL: db.url });
    const deployment = new SpeechDeployment(validateConfig(SpeechConfig, env), agentsConfig);
    const sealer = new ProviderKeySealer(
      Object.assign(new CustomFunctionsConfig(), { SECRETS_KEY: secretsKey }),
    );
    const models = new ModelDeployment(validateConfig(ModelsConfig, {}), new KnowledgeConfig());
    const credentials = new ProviderCredentialsService(
      dataSource,
      new ProviderKeyChecker(deployment, models),
      sealer,
      models,
    );
    const access = new SpeechAccess(credentials, deployment);
    return {
      credentials,
      models,
      voices: new VoicesService(dataSource, access),
      plans: new SpeechPlanService(dataSource, new SpeechKeys(credentials, deployment)),
    };
  }
  const secretsKey = randomBytes(32).toString('hex');

  beforeAll(async () => {
    // Answers GET /v1/models as OpenAI does: 200 for a key it knows, 401 quoting the key otherwise.
    openai = await startFakeServer({
      request(req, res, url) {
        if (req.method !== 'GET' || url.pathname !== '/v1/models') {
          return sendJson(res, 404, { error: { message: 'Invalid URL' } });
        }
        const auth = req.headers.authorization ?? '';
        checks.push(auth);
        if (auth === `Bearer ${GOOD_KEY}` || auth === `Bearer ${OTHER_GOOD_KEY}`) {
          return sendJson(res, 200, { object: 'list', data: [{ id: 'gpt-4o-mini-tts', object: 'model' }] });
        }
        sendJson(res, 401, {
          error: {
            message: `Incorrect API key provided: ${auth.replace(/^Bearer /, '')}.`,
            type: 'invalid_request_error',
            code: 'invalid_api_key',
          },
        });
      },
    });
    db = await createTestDatabase(SERVER_URL, 'vap_provider_credentials');
    const options = agentsDataSourceOptions(Object.assign(new AgentsConfig(), { DATABASE_URL: db.url }));
    await runMigrations(options);
    dataSource = await new DataSource(options).initialize();
    ({
      credentials: service,
      voices,
      plans,
      models,
    } = services({
      SPEECH_OPENAI_BASE_URL: openai.url,
      SPEECH_DEEPGRAM_BASE_URL: `http://127.0.0.1:${await closedPort()}`,
      SPEECH_ELEVENLABS_API_KEY: PLATFORM_ELEVENLABS_KEY,
      SPEECH_ELEVENLABS_BASE_URL: 'http://127.0.0.1:1',
      SPEECH_ELEVENLABS_TIERS: 'premium,enterprise',
      SPEECH_OFFLINE_STAND_IN: 'false',
      SPEECH_KEY_CHECK_TIMEOUT_MS: '2000',
    }));
    // The seeded catalog's OpenAI voices: alloy active, nova retired for these cases.
    const repo = dataSource.getRepository(Voice);
    openaiVoice = (await repo.findOneByOrFail({ provider: 'openai', providerVoiceId: 'alloy' })).id;
    retiredOpenaiVoice = (await repo.findOneByOrFail({ provider: 'openai', providerVoiceId: 'nova' })).id;
    await repo.update({ id: retiredOpenaiVoice }, { status: 'retired' });
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
    await openai?.close();
  });

  describe('storing a key', () => {
    const partner = randomUUID();

    it('checks the key live, stores it sealed and answers it masked', async () => {
      const before = checks.length;
      const { provider_credential: made } = await service.create(partner, {
        provider: 'openai',
        api_key: GOOD_KEY,
        label: 'Main',
      });
      expect(checks.slice(before)).toEqual([`Bearer ${GOOD_KEY}`]);
      expect(made).toEqual({
        id: expect.stringMatching(/^pcred_[0-9a-f-]{36}$/),
        provider: 'openai',
        label: 'Main',
        region: null,
        key_last4: '…0001',
        used_for: ['speech', 'models'],
        base_url: null,
        status: 'active',
        checked_at: expect.any(String),
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      expect(JSON.stringify(made)).not.toContain(GOOD_KEY);
      const [row] = await dataSource.query(
        `SELECT row_to_json(c)::text AS raw FROM agents.provider_credentials c WHERE id = $1`,
        [made.id],
      );
      expect(row.raw).not.toContain(GOOD_KEY);
      expect(row.raw).not.toContain(Buffer.from(GOOD_KEY).toString('base64'));
    });

    it('refuses a second key for the same provider with 409, without asking the provider', async () => {
      const before = checks.length;
      const err = await refusal(service.create(partner, { provider: 'openai', api_key: OTHER_GOOD_KEY }));
      expect(err.code).toBe(ErrorCode.CONFLICT);
      expect(err.message).toMatch(/PUT \/provider-credentials/);
      expect(checks.length).toBe(before);
    });

    it('refuses a key the provider refuses with 400 quoting the provider, without the key', async () => {
      const wrong = 'sk-test-wrong-key-4242';
      const err = await refusal(service.create(randomUUID(), { provider: 'openai', api_key: wrong }));
      expect(err.code).toBe(ErrorCode.VALIDATION_ERROR);
      expect(err.status).toBe(400);
      expect(err.details).toEqual([
        { field: 'api_key', message: 'OpenAI refused the key: Incorrect API key provided: …4242.' },
      ]);
      expect(JSON.stringify(err.toPayload())).not.toContain(wrong);
    });

    it('answers 502 naming the host to allow, and saves nothing, when the provider cannot be reached', async () => {
      const someone = randomUUID();
      const err = await refusal(
        service.create(someone, { provider: 'deepgram', api_key: 'dg-key-12345678' }),
      );
      expect(err.status).toBe(502);
      expect(err.code).toBe(ErrorCode.INTERNAL_ERROR);
      expect(err.message).toMatch(
        /^Deepgram cannot be reached from this deployment \(the connection was refused\), so the key was not checked or saved: the platform operator must allow this deployment outbound HTTPS access to 127\.0\.0\.1:\d+; trying again will not help until then$/,
      );
      expect((await service.list(someone)).provider_credentials).toEqual([]);
    });

    it('refuses a region for a provider whose keys have none, before any check', async () => {
      const before = checks.length;
      const openaiWithRegion = await refusal(
        service.create(randomUUID(), { provider: 'openai', api_key: GOOD_KEY, region: 'eastus' }),
      );
      expect(openaiWithRegion.details).toEqual([
        {
          field: 'region',
          message: 'region applies only to keys of providers with regions; OpenAI has none',
        },
      ]);
      expect(checks.length).toBe(before);
    });
  });

  describe('managing a key', () => {
    const partner = randomUUID();
    const stranger = randomUUID();
    let id: string;

    beforeAll(async () => {
      id = (await service.create(partner, { provider: 'openai', api_key: GOOD_KEY })).provider_credential.id;
    });

    it('lists and gets the account’s keys masked, and nobody else’s', async () => {
      const list = await service.list(partner);
      expect(list.provider_credentials.map((c) => [c.id, c.key_last4])).toEqual([[id, '…0001']]);
      expect((await service.get(partner, id)).provider_credential.id).toBe(id);
      expect((await service.list(stranger)).provider_credentials).toEqual([]);
      for (const attempt of [
        () => service.get(stranger, id),
        () => service.update(stranger, id, { label: 'mine' }),
        () => service.rotate(stranger, id, { api_key: OTHER_GOOD_KEY }),
        () => service.remove(stranger, id),
        () => service.get(partner, 'pcred_not-a-uuid'),
        () => service.get(partner, id.replace('pcred_', '')),
      ]) {
        const err = await refusal(attempt());
        expect([err.code, err.message]).toEqual([ErrorCode.NOT_FOUND, 'Provider credential not found']);
      }
    });

    it('renames, and clears the label with null', async () => {
      expect((await service.update(partner, id, { label: 'Renamed' })).provider_credential.label).toBe(
        'Renamed',
      );
      expect((await service.update(partner, id, { label: null })).provider_credential.label).toBeNull();
    });

    it('rotates to a key the provider accepts, and keeps the old one when it refuses the new', async () => {
      const rotated = (await service.rotate(partner, id, { api_key: OTHER_GOOD_KEY })).provider_credential;
      expect(rotated.key_last4).toBe('…0002');
      const err = await refusal(service.rotate(partner, id, { api_key: 'sk-test-wrong-again-77' }));
      expect(err.status).toBe(400);
      expect((await service.get(partner, id)).provider_credential.key_last4).toBe('…0002');
      expect((await service.openKeys(partner)).get('openai')?.apiKey).toBe(OTHER_GOOD_KEY);
    });

    it('deletes the key; then it is gone', async () => {
      expect(await service.remove(partner, id)).toEqual({ id, message: 'Provider credential deleted' });
      expect((await refusal(service.get(partner, id))).code).toBe(ErrorCode.NOT_FOUND);
      expect(await dataSource.getRepository(ProviderCredential).countBy({ partnerId: partner })).toBe(0);
    });
  });

  describe('the catalog an account sees', () => {
    const partner = randomUUID();
    const ids = (list: { id: string }[]) => list.map((v) => v.id.replace(/^vc_/, ''));

    it('lists a cloud voice only with a key for its provider, saying how', async () => {
      // The offline development voices and local speech's voices are always there (no key); cloud voices only
      // with one.
      const cloud = <T extends { provider: string }>(list: T[]) =>
        list.filter((v) => v.provider !== 'offline' && v.provider !== 'local');
      const standardBefore = await voices.voiceConfigurations(partner, 'standard');
      expect(cloud(standardBefore.voice_configurations)).toEqual([]);
      expect(standardBefore.voice_configurations.every((v) => v.availability === 'offline')).toBe(true);
      const premium = await voices.voiceConfigurations(partner, 'premium');
      // The platform's ElevenLabs key serves premium accounts; nothing else has a key.
      expect(
        new Set(cloud(premium.voice_configurations).map((v) => [v.provider, v.availability].join(':'))),
      ).toEqual(new Set(['elevenlabs:platform']));
      expect(ids(premium.voice_configurations)).toContain(ELEVENLABS_VOICE);

      await service.create(partner, { provider: 'openai', api_key: GOOD_KEY });
      const standardAfter = cloud(
        (await voices.voiceConfigurations(partner, 'standard')).voice_configurations,
      );
      // Every active OpenAI voice of the tier, on the account's key (the retired one is offered to no one).
      expect(new Set(standardAfter.map((v) => [v.provider, v.availability].join(':')))).toEqual(
        new Set(['openai:account_key']),
      );
      expect(ids(standardAfter)).toContain(openaiVoice);
      expect(ids(standardAfter)).not.toContain(retiredOpenaiVoice);
      const agentVoices = cloud((await voices.agentVoices(partner, 'standard')).voices);
      expect(agentVoices.map((v) => v.voice_id)).toContain(openaiVoice);
      expect(agentVoices.every((v) => v.availability === 'account_key')).toBe(true);
      // Another account sees none of it.
      expect(
        cloud((await voices.voiceConfigurations(randomUUID(), 'standard')).voice_configurations),
      ).toEqual([]);
    });

    it('refuses an agent a voice the account cannot use, saying what to do', async () => {
      const em = dataSource.manager;
      expect((await voices.checkVoice(em, openaiVoice, 'standard', partner)).voice?.id).toBe(openaiVoice);
      expect((await voices.checkVoice(em, ELEVENLABS_VOICE, 'premium', partner)).voice?.id).toBe(
        ELEVENLABS_VOICE,
      );
      expect((await voices.checkVoice(em, SARVAM_VOICE, 'standard', partner)).problem).toEqual({
        field: 'voice_id',
        message:
          'voice_id needs a key for Sarvam on this account: store one with POST /provider-credentials ' +
          "(the platform offers no Sarvam key for this account's tier)",
      });
      expect((await voices.checkVoice(em, openaiVoice, 'standard', randomUUID())).problem?.field).toBe(
        'voice_id',
      );
    });

    it('offers every entitled voice as a development stand-in where the deployment allows it', async () => {
      const standIn = services({ SPEECH_OPENAI_BASE_URL: openai.url });
      const list = (await standIn.voices.voiceConfigurations(partner, 'standard')).voice_configurations;
      expect(list.length).toBeGreaterThan(10);
      const byId = new Map(list.map((v) => [v.id, v.availability]));
      expect(byId.get(`vc_${openaiVoice}`)).toBe('account_key');
      expect(byId.get(`vc_${SARVAM_VOICE}`)).toBe('development_stand_in');
    });
  });

  describe('the speech plan of a call', () => {
    const owner = randomUUID();
    const stranger = randomUUID();
    const request = (overrides: Partial<SpeechPlanRequest> = {}): SpeechPlanRequest => ({
      callId: randomUUID(),
      voiceId: retiredOpenaiVoice,
      fallbackVoiceIds: [ELEVENLABS_VOICE, SARVAM_VOICE],
      transcriber: { provider: 'openai', model: 'gpt-4o-transcribe', keyterms: ['Vaani', 'EMI', 'vaani'] },
      fallbackTranscriber: { provider: 'deepgram', languages: ['hi'], options: { smart_format: true } },
      dictionaryIds: [],
      spokenLanguages: ['en', 'hi'],
      ...overrides,
    });

    beforeAll(async () => {
      await service.create(owner, { provider: 'openai', api_key: OTHER_GOOD_KEY });
      await service.create(stranger, { provider: 'openai', api_key: GOOD_KEY });
    });

    it("adds the agent's dictionaries: their words after the transcriber's as key terms, their pronunciations, the account's own only", async () => {
      const mine = randomUUID();
      const theirs = randomUUID();
      await dataSource.getRepository(Dictionary).insert([
        {
          id: mine,
          partnerId: owner,
          name: 'Brand words',
          description: null,
          entries: [
            { word: 'Zylofon', alias: 'Zylo phone' },
            { word: 'EMI' },
            { word: 'Kaveri', ipa: 'kaːʋeːɾiː' },
          ],
        },
        {
          id: theirs,
          partnerId: stranger,
          name: 'Not yours',
          description: null,
          entries: [{ word: 'Secret' }],
        },
      ]);
      const plan = await plans.plan(owner, 'standard', request({ dictionaryIds: [mine, theirs] }));
      // The transcriber's terms first, each once whatever its case; then the dictionary's new words.
      expect(plan.keyterms).toEqual(['Vaani', 'EMI', 'Zylofon', 'Kaveri']);
      expect(plan.pronunciations).toEqual([
        { word: 'Zylofon', alias: 'Zylo phone' },
        { word: 'Kaveri', ipa: 'kaːʋeːɾiː' },
      ]);
    });

    it('gives each voice and transcriber the account’s key, else the platform’s for its tier, else none', async () => {
      const plan = await plans.plan(owner, 'premium', request());
      expect(plan.tts).toEqual([
        {
          provider: 'openai',
          voiceId: retiredOpenaiVoice,
          providerVoiceId: 'nova',
          model: 'gpt-4o-mini-tts',
          speed: 1,
          volume: 1,
          language: 'en-US',
          credential: { provider: 'openai', apiKey: OTHER_GOOD_KEY, baseUrl: openai.url, paidBy: 'account' },
        },
        expect.objectContaining({
          provider: 'elevenlabs',
          voiceId: ELEVENLABS_VOICE,
          credential: {
            provider: 'elevenlabs',
            apiKey: PLATFORM_ELEVENLABS_KEY,
            baseUrl: 'http://127.0.0.1:1',
            paidBy: 'platform',
          },
        }),
        expect.not.objectContaining({ credential: expect.anything() }),
      ]);
      expect(plan.tts[2]).toMatchObject({
        provider: 'sarvam',
        voiceId: SARVAM_VOICE,
        providerVoiceId: 'anushka',
      });
      expect(plan.stt).toEqual([
        {
          provider: 'openai',
          model: 'gpt-4o-transcribe',
          languages: ['en', 'hi'],
          credential: { provider: 'openai', apiKey: OTHER_GOOD_KEY, baseUrl: openai.url, paidBy: 'account' },
        },
        { provider: 'deepgram', languages: ['hi'], options: { smart_format: true } },
      ]);
      expect(plan.keyterms).toEqual(['Vaani', 'EMI']);
      expect(plan.pronunciations).toEqual([]);
    });

    it('unseals the calling account’s key only', async () => {
      const mine = await plans.plan(stranger, 'standard', request());
      expect(mine.tts[0].credential?.apiKey).toBe(GOOD_KEY);
      expect(JSON.stringify(mine)).not.toContain(OTHER_GOOD_KEY);
      // A standard account gets no platform key where the platform serves premium only.
      expect(mine.tts[1].credential).toBeUndefined();
      const none = await plans.plan(randomUUID(), 'enterprise', request());
      expect(none.tts[0].credential).toBeUndefined();
      expect(none.tts[1].credential?.paidBy).toBe('platform');
    });

    it('runs on the tier the partner events gave when voice asks without a partner snapshot', async () => {
      const partner = randomUUID();
      const tiers = new PartnerTiers(dataSource);
      const handlers = new ProviderCredentialsHandlers(
        service,
        plans,
        new ModelPlanService(service, models),
        new ModelCatalogService(new ModelAccess(service, models)),
        tiers,
      );
      const elevenlabs = (plan: { tts: { provider: string; credential?: unknown }[] }) =>
        plan.tts.find((t) => t.provider === 'elevenlabs');
      // Unknown to the service: the base tier, which the platform's ElevenLabs key does not serve.
      expect(elevenlabs(await handlers.plan(request(), partner))?.credential).toBeUndefined();

      const at = new Date().toISOString();
      const upgraded: PartnerDto = {
        id: partner,
        name: 'Acme',
        status: 'approved',
        balance_inr: 100,
        concurrency_limit: 5,
        voice_tier: 'premium',
        created_at: at,
        updated_at: at,
        version: 2,
        reseller: false,
        reseller_id: null,
        price_per_minute_inr: null,
      };
      await new PartnerEventsConsumer(tiers).updated(
        {
          id: randomUUID(),
          subject: DomainEvents.partnerUpdated,
          partnerId: partner,
          occurredAt: at,
          data: upgraded,
        },
        dataSource.manager,
      );
      // As voice asks: the partner id alone.
      expect(elevenlabs(await handlers.plan(request(), partner))?.credential).toEqual({
        provider: 'elevenlabs',
        apiKey: PLATFORM_ELEVENLABS_KEY,
        baseUrl: 'http://127.0.0.1:1',
        paidBy: 'platform',
      });
      // A caller's snapshot is the gateway's view at the request: it decides when present.
      const standard: PartnerContext = {
        id: partner,
        status: 'approved',
        voiceTier: 'standard',
        concurrencyLimit: 5,
        balancePaise: 10_000,
        pricePerMinutePaise: null,
        version: 3,
      };
      expect(elevenlabs(await handlers.plan(request(), partner, standard))?.credential).toBeUndefined();
    });

    it('falls back to the offline voice when no voice of the agent is in the catalog', async () => {
      const plan = await plans.plan(owner, 'standard', {
        ...request({ voiceId: randomUUID(), fallbackVoiceIds: ['not-a-uuid'], transcriber: null }),
        fallbackTranscriber: null,
        spokenLanguages: ['hi'],
      });
      expect(plan).toEqual({
        tts: [
          {
            provider: 'offline',
            voiceId: 'offline',
            providerVoiceId: 'offline',
            model: 'offline',
            speed: 1,
            volume: 1,
            language: 'hi-IN',
          },
        ],
        stt: [],
        keyterms: [],
        pronunciations: [],
      });
    });
  });
});
