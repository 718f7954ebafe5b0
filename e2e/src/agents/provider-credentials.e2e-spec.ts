// Accounts' speech provider keys through the gateway, on a platform of the spec's own whose OpenAI API is a local
// server answering the key check as OpenAI does (GET /v1/models: 200 for a key it knows, 401 otherwise), whose
// Deepgram API does not answer, which pays for ElevenLabs for premium accounts, and where the offline engine may
// not stand in: a key is checked live, stored, never returned, rotated and deleted; the catalog lists a voice only
// when the account can speak with it; and the speech plan voice asks for unseals the calling account's key only.
import { randomUUID } from 'node:crypto';
import { sendJson, StartedFakeServer, startFakeServer } from '@vap/testing';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { connect, NatsConnection, StringCodec } from 'nats';
import { api, createPartner, OwnPlatform, startOwnPlatform } from '../../support';
import { e2eEnv } from '../../support/env';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const GOOD_KEY = 'sk-e2e-openai-good-key-0001';
const ROTATED_KEY = 'sk-e2e-openai-good-key-0002';
const PLATFORM_ELEVENLABS_KEY = 'platform-elevenlabs-e2e-key';
const ELEVENLABS_BASE_URL = 'http://127.0.0.1:9/elevenlabs';
/** A premium ElevenLabs voice (Priya) and a standard Sarvam voice (Anushka) of the seeded catalog. */
const ELEVENLABS_VOICE = '254b0c4e-010c-4759-882c-9cbc43435cc5';
const SARVAM_VOICE = 'd17f9aca-e01f-4057-8a02-135e92b1d3f2';
/** An OpenAI voice this spec adds to its platform's catalog. */
/** The seeded catalog's OpenAI alloy voice (standard tier, en-US). */
const OPENAI_VOICE = 'cb3d5f44-ded2-4986-a796-91eb40c1bc01';
const sc = StringCodec();

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('provider credentials', () => {
  let own: OwnPlatform;
  let openai: StartedFakeServer;
  let nats: NatsConnection;
  const checks: string[] = [];
  let baseUrl: string;

  beforeAll(async () => {
    openai = await startFakeServer({
      request(req, res, url) {
        if (req.method !== 'GET' || url.pathname !== '/v1/models') {
          return sendJson(res, 404, { error: { message: 'Invalid URL' } });
        }
        const auth = req.headers.authorization ?? '';
        checks.push(auth);
        if (auth === `Bearer ${GOOD_KEY}` || auth === `Bearer ${ROTATED_KEY}`) {
          return sendJson(res, 200, { object: 'list', data: [{ id: 'gpt-4o-mini-tts', object: 'model' }] });
        }
        sendJson(res, 401, {
          error: {
            message: 'Incorrect API key provided. You can find your API key at https://platform.openai.com.',
            type: 'invalid_request_error',
            code: 'invalid_api_key',
          },
        });
      },
    });
    own = await startOwnPlatform({
      name: 'provider_creds',
      services: ['agents'],
      env: {
        SPEECH_OFFLINE_STAND_IN: 'false',
        SPEECH_OPENAI_BASE_URL: `${openai.url}/v1`,
        SPEECH_DEEPGRAM_BASE_URL: `http://127.0.0.1:${await closedPort()}`,
        SPEECH_ELEVENLABS_API_KEY: PLATFORM_ELEVENLABS_KEY,
        SPEECH_ELEVENLABS_TIERS: 'premium,enterprise',
        // Never contacted here: the plan only names where the platform's key goes.
        SPEECH_ELEVENLABS_BASE_URL: ELEVENLABS_BASE_URL,
        SPEECH_KEY_CHECK_TIMEOUT_MS: '2000',
      },
    });
    baseUrl = own.platform.gatewayUrl;
    nats = await connect({ servers: e2eEnv().natsUrl, name: 'e2e-provider-credentials' });
  }, 150_000);

  afterAll(async () => {
    await nats?.close();
    await own?.stop();
    await openai?.close();
  });

  const partner = async (voice_tier = 'standard') => {
    const made = await createPartner({ voice_tier }, baseUrl);
    return { id: made.partner.id, key: made.apiKey };
  };
  const call = (key: string, path: string, init: { method?: string; body?: unknown } = {}) =>
    api(path, { key, baseUrl, ...init });
  /** The cloud voices an account is offered (the offline and local speech voices are offered to everyone). */
  const catalog = async (key: string): Promise<Any[]> => {
    const res = await call(key, '/voice-configurations');
    expect(res.status).toBe(200);
    const all = res.body.data.voice_configurations as Any[];
    const keyless = (v: Any) => v.provider === 'offline' || v.provider === 'local';
    expect(all.filter(keyless).every((v) => v.availability === 'offline')).toBe(true);
    return all.filter((v) => !keyless(v));
  };
  /** agents.speech.plan as voice sends it when a call's media starts. */
  const plan = async (partnerId: string, voiceTier: string, data: Record<string, unknown>): Promise<Any> => {
    const msg = await nats.request(
      `${own.prefix}.agents.speech.plan`,
      sc.encode(
        JSON.stringify({
          partnerId,
          partner: {
            id: partnerId,
            status: 'approved',
            voiceTier,
            concurrencyLimit: 5,
            balancePaise: 0,
            version: 1,
          },
          requestId: `e2e-${randomUUID()}`,
          data,
        }),
      ),
      { timeout: 10_000 },
    );
    return JSON.parse(sc.decode(msg.data));
  };

  it('stores a key the provider accepts, answers it masked (200, as every create) and never returns it', async () => {
    const { key } = await partner();
    const before = checks.length;
    const res = await call(key, '/provider-credentials', {
      method: 'POST',
      body: { provider: 'openai', api_key: GOOD_KEY, label: 'Main OpenAI' },
    });
    expect(res.status).toBe(200);
    const credential = res.body.data.provider_credential;
    expect(credential).toEqual({
      id: expect.stringMatching(/^pcred_[0-9a-f-]{36}$/),
      provider: 'openai',
      label: 'Main OpenAI',
      region: null,
      key_last4: '…0001',
      used_for: ['speech', 'models'],
      base_url: null,
      status: 'active',
      checked_at: expect.any(String),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(checks.slice(before)).toEqual([`Bearer ${GOOD_KEY}`]);
    const list = await call(key, '/provider-credentials');
    const got = await call(key, `/provider-credentials/${credential.id}`);
    expect(list.body.data.provider_credentials).toEqual([credential]);
    expect(got.body.data.provider_credential).toEqual(credential);
    for (const body of [res.body, list.body, got.body]) expect(JSON.stringify(body)).not.toContain(GOOD_KEY);

    const again = await call(key, '/provider-credentials', {
      method: 'POST',
      body: { provider: 'openai', api_key: ROTATED_KEY },
    });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('CONFLICT');
  });

  it('refuses a key the provider refuses with 400 quoting the provider, and saves nothing', async () => {
    const { key } = await partner();
    const res = await call(key, '/provider-credentials', {
      method: 'POST',
      body: { provider: 'openai', api_key: 'sk-e2e-wrong-key-9999' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details).toEqual([
      {
        field: 'api_key',
        message:
          'OpenAI refused the key: Incorrect API key provided. You can find your API key at https://platform.openai.com.',
      },
    ]);
    expect((await call(key, '/provider-credentials')).body.data.provider_credentials).toEqual([]);
  });

  it('answers 502 naming the host to allow when the provider cannot be reached, and saves nothing', async () => {
    const { key } = await partner();
    const res = await call(key, '/provider-credentials', {
      method: 'POST',
      body: { provider: 'deepgram', api_key: 'dg-e2e-key-12345678' },
    });
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe('INTERNAL_ERROR');
    expect(res.body.error.message).toMatch(
      /^Deepgram cannot be reached from this deployment \(the connection was refused\), so the key was not checked or saved: the platform operator must allow this deployment outbound HTTPS access to 127\.0\.0\.1:\d+; trying again will not help until then$/,
    );
    expect((await call(key, '/provider-credentials')).body.data.provider_credentials).toEqual([]);
  });

  it('validates the request before asking anyone', async () => {
    const { key } = await partner();
    const before = checks.length;
    for (const body of [
      { provider: 'whisper', api_key: GOOD_KEY },
      { provider: 'openai' },
      { provider: 'openai', api_key: 'short' },
      { provider: 'openai', api_key: 'has a space in it' },
      { provider: 'openai', api_key: GOOD_KEY, region: 'eastus' },
      { provider: 'openai', api_key: GOOD_KEY, extra: true },
    ]) {
      const res = await call(key, '/provider-credentials', { method: 'POST', body });
      expect([res.status, res.body.error.code]).toEqual([400, 'VALIDATION_ERROR']);
    }
    expect(checks.length).toBe(before);
  });

  it('rotates, renames and deletes a key; another account’s id is a 404', async () => {
    const owner = await partner();
    const stranger = await partner();
    const made = await call(owner.key, '/provider-credentials', {
      method: 'POST',
      body: { provider: 'openai', api_key: GOOD_KEY },
    });
    const id = made.body.data.provider_credential.id;

    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', { api_key: ROTATED_KEY }],
      ['PATCH', { label: 'Mine now' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await call(stranger.key, `/provider-credentials/${id}`, { method, body });
      expect([method, res.status, res.body.error?.code]).toEqual([method, 404, 'NOT_FOUND']);
    }
    expect((await call(owner.key, '/provider-credentials/pcred_nope')).status).toBe(404);

    const refused = await call(owner.key, `/provider-credentials/${id}`, {
      method: 'PUT',
      body: { api_key: 'sk-e2e-wrong-rotation-11' },
    });
    expect(refused.status).toBe(400);
    const rotated = await call(owner.key, `/provider-credentials/${id}`, {
      method: 'PUT',
      body: { api_key: ROTATED_KEY },
    });
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.provider_credential.key_last4).toBe('…0002');

    const renamed = await call(owner.key, `/provider-credentials/${id}`, {
      method: 'PATCH',
      body: { label: 'Rotated' },
    });
    expect(renamed.body.data.provider_credential).toMatchObject({ id, label: 'Rotated', key_last4: '…0002' });

    const deleted = await call(owner.key, `/provider-credentials/${id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ id, message: 'Provider credential deleted' });
    expect((await call(owner.key, `/provider-credentials/${id}`)).status).toBe(404);
  });

  it('lists a voice only when the account can speak with it, and refuses agents the others', async () => {
    const standard = await partner('standard');
    const premium = await partner('premium');
    // No key, no stand-in: nothing a standard account could speak with.
    expect(await catalog(standard.key)).toEqual([]);
    // The platform's ElevenLabs key serves premium accounts.
    const premiumList = await catalog(premium.key);
    expect(new Set(premiumList.map((v) => `${v.provider}:${v.availability}`))).toEqual(
      new Set(['elevenlabs:platform']),
    );
    expect(premiumList.map((v) => v.id)).toContain(`vc_${ELEVENLABS_VOICE}`);

    const refused = await call(standard.key, '/agent', {
      method: 'POST',
      body: {
        agent_name: `creds ${randomUUID()}`,
        prompt: 'Be brief.',
        voice_id: SARVAM_VOICE,
        agent_type: 'outbound',
      },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toContainEqual({
      field: 'voice_id',
      message:
        'voice_id needs a key for Sarvam on this account: store one with POST /provider-credentials ' +
        "(the platform offers no Sarvam key for this account's tier)",
    });

    const stored = await call(standard.key, '/provider-credentials', {
      method: 'POST',
      body: { provider: 'openai', api_key: GOOD_KEY },
    });
    expect(stored.status).toBe(200);
    // Every OpenAI voice of the standard tier, on the account's key.
    const offered = await catalog(standard.key);
    expect(new Set(offered.map((v) => `${v.provider}:${v.availability}`))).toEqual(
      new Set(['openai:account_key']),
    );
    expect(offered.map((v) => v.id)).toContain(`vc_${OPENAI_VOICE}`);
    const voices = (await call(standard.key, '/agent/voices')).body.data.voices.filter(
      (v: Any) => v.provider !== 'offline' && v.provider !== 'local',
    );
    expect(voices.map((v: Any) => v.voice_id)).toContain(OPENAI_VOICE);
    expect(voices.every((v: Any) => v.availability === 'account_key')).toBe(true);
    const agent = await call(standard.key, '/agent', {
      method: 'POST',
      body: {
        agent_name: `creds ${randomUUID()}`,
        prompt: 'Be brief.',
        voice_id: OPENAI_VOICE,
        agent_type: 'outbound',
      },
    });
    expect(agent.status).toBe(200);

    await call(standard.key, `/provider-credentials/${stored.body.data.provider_credential.id}`, {
      method: 'DELETE',
    });
    expect(await catalog(standard.key)).toEqual([]);
  });

  it('plans a call’s speech with the calling account’s key unsealed, and nobody else’s', async () => {
    const owner = await partner('premium');
    const other = await partner('standard');
    await call(owner.key, '/provider-credentials', {
      method: 'POST',
      body: { provider: 'openai', api_key: ROTATED_KEY },
    });
    await call(other.key, '/provider-credentials', {
      method: 'POST',
      body: { provider: 'openai', api_key: GOOD_KEY },
    });
    const request = {
      callId: randomUUID(),
      voiceId: OPENAI_VOICE,
      fallbackVoiceIds: [ELEVENLABS_VOICE],
      transcriber: { provider: 'openai', keyterms: ['Vaani'] },
      fallbackTranscriber: null,
      dictionaryIds: [],
      spokenLanguages: ['en'],
    };

    const mine = await plan(owner.id, 'premium', request);
    expect(mine.ok).toBe(true);
    expect(mine.data.tts).toEqual([
      {
        provider: 'openai',
        voiceId: OPENAI_VOICE,
        providerVoiceId: 'alloy',
        model: 'gpt-4o-mini-tts',
        speed: 1,
        volume: 1,
        language: 'en-US',
        credential: {
          provider: 'openai',
          apiKey: ROTATED_KEY,
          baseUrl: `${openai.url}/v1`,
          paidBy: 'account',
        },
      },
      expect.objectContaining({
        provider: 'elevenlabs',
        voiceId: ELEVENLABS_VOICE,
        credential: {
          provider: 'elevenlabs',
          apiKey: PLATFORM_ELEVENLABS_KEY,
          baseUrl: ELEVENLABS_BASE_URL,
          paidBy: 'platform',
        },
      }),
    ]);
    expect(mine.data.stt).toEqual([
      {
        provider: 'openai',
        languages: ['en'],
        credential: {
          provider: 'openai',
          apiKey: ROTATED_KEY,
          baseUrl: `${openai.url}/v1`,
          paidBy: 'account',
        },
      },
    ]);
    expect(mine.data.keyterms).toEqual(['Vaani']);

    const theirs = await plan(other.id, 'standard', request);
    expect(theirs.data.tts[0].credential.apiKey).toBe(GOOD_KEY);
    // A standard account: no platform ElevenLabs key for it.
    expect(theirs.data.tts[1].credential).toBeUndefined();
    expect(JSON.stringify(theirs)).not.toContain(ROTATED_KEY);
    expect(JSON.stringify(theirs)).not.toContain(PLATFORM_ELEVENLABS_KEY);
  });
});
