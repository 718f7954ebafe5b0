// Voice previews against a real Postgres and a local OpenAI-compatible speech server: the provider with the
// platform's key, the offline stand-in, the cache keyed by the voice's version, entitlement and failures.
import { DataSource } from 'typeorm';
import { decodePcm16Wav } from '@vap/media';
import { AppError, ErrorCode, PartnerContext } from '@vap/messages';
import { runMigrations } from '@vap/persistence';
import { FakeRecogniser, pcmBytes, speechPcm } from '@vap/speech/testing';
import {
  createTestDatabase,
  readBody,
  sendJson,
  StartedFakeServer,
  startFakeServer,
  TestDatabase,
} from '@vap/testing';
import { AgentsConfig } from '../config/agents.config';
import { agentsDataSourceOptions } from '../database/data-source';
import { SEEDED_VOICES } from '../database/migrations/1765100030000-catalog-voices';
import { Voice } from './entities/voice.entity';
import { validateConfig } from '@vap/runtime';
import { SpeechConfig } from '../config/speech.config';
import { ProviderCredentialsService } from '../provider-credentials/provider-credentials.service';
import { SpeechDeployment } from '../provider-credentials/speech-deployment';
import { SpeechKeys } from '../provider-credentials/speech-keys';
import { VoicePreviewService } from './voice-preview.service';

jest.setTimeout(60_000);

const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const KEY = 'sk-platform-preview';
/** OpenAI's `pcm` response format: 24 kHz. */
const OPENAI_RATE = 24000;

const seeded = (provider: string, providerVoiceId: string) =>
  SEEDED_VOICES.find((v) => v[1] === provider && v[4] === providerVoiceId)![0];
const NOVA = seeded('openai', 'nova');
const RACHEL = seeded('elevenlabs', '21m00Tcm4TlvDq8ikWAM');

const partner = (voiceTier: string) => ({ id: 'p', voiceTier }) as unknown as PartnerContext;

/** What the fake OpenAI speech endpoint was asked. */
interface SpeechAsk {
  authorization?: string;
  body: Record<string, unknown>;
}

function wordsOf(wavBase64: string): string[] {
  const { samples, sampleRate } = decodePcm16Wav(Buffer.from(wavBase64, 'base64'));
  return new FakeRecogniser(sampleRate).push(samples);
}

describe('VoicePreviewService', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  let fake: StartedFakeServer;
  let service: VoicePreviewService;
  const asks: SpeechAsk[] = [];
  let failing = false;
  const saved = { ...process.env };

  beforeAll(async () => {
    db = await createTestDatabase(SERVER_URL, 'vap_voice_previews');
    const options = agentsDataSourceOptions(Object.assign(new AgentsConfig(), { DATABASE_URL: db.url }));
    await runMigrations(options);
    dataSource = await new DataSource(options).initialize();
    fake = await startFakeServer({
      async request(req, res, url) {
        if (req.method !== 'POST' || url.pathname !== '/v1/audio/speech') return sendJson(res, 404, {});
        const body = JSON.parse((await readBody(req)).toString('utf8')) as Record<string, unknown>;
        asks.push({ authorization: req.headers.authorization, body });
        if (req.headers.authorization !== `Bearer ${KEY}`)
          return sendJson(res, 401, { error: { message: 'Incorrect API key provided' } });
        if (failing) return sendJson(res, 500, { error: { message: 'The server had an error' } });
        const audio = pcmBytes(await speechPcm(String(body.input), OPENAI_RATE));
        res.writeHead(200, { 'content-type': 'audio/pcm' });
        // In pieces, as the API streams it.
        for (let at = 0; at < audio.length; at += 9600) res.write(audio.subarray(at, at + 9600));
        res.end();
      },
    });
  });

  /**
   * The service as the agents app makes it, over the deployment the environment describes now (tests change
   * SPEECH_* between cases); the account has no key of its own.
   */
  function serviceNow(): VoicePreviewService {
    const agents = Object.assign(new AgentsConfig(), { NODE_ENV: process.env.NODE_ENV ?? 'test' });
    const deployment = new SpeechDeployment(validateConfig(SpeechConfig, process.env), agents);
    const noAccountKeys = { openKeys: async () => new Map() } as unknown as ProviderCredentialsService;
    return new VoicePreviewService(dataSource, new SpeechKeys(noAccountKeys, deployment));
  }

  beforeEach(() => {
    process.env = {
      ...saved,
      SPEECH_OPENAI_API_KEY: KEY,
      SPEECH_OPENAI_BASE_URL: fake.url,
      // Stand-ins speak words the fake recogniser reads back; one case hears local speech.
      SPEECH_STAND_IN: 'offline',
      NODE_ENV: 'test',
    };
    service = serviceNow();
    asks.length = 0;
    failing = false;
  });

  afterAll(async () => {
    process.env = saved;
    await fake?.close();
    await dataSource?.destroy();
    await db?.drop();
  });

  it("speaks with the provider and the platform's key, once: the second preview comes from the cache", async () => {
    const first = await service.preview(partner('standard'), 'p', NOVA);
    expect(first.engine).toBe('provider');
    expect(first.sampleRate).toBe(8000);
    const voice = await dataSource.manager.findOneByOrFail(Voice, { id: NOVA });
    expect(wordsOf(first.wavBase64)).toEqual([voice.previewText]);
    expect(asks).toEqual([
      {
        authorization: `Bearer ${KEY}`,
        body: expect.objectContaining({ model: 'gpt-4o-mini-tts', voice: 'nova', input: voice.previewText }),
      },
    ]);
    const second = await service.preview(partner('standard'), 'p', `vc_${NOVA}`);
    expect(second).toEqual(first);
    expect(asks).toHaveLength(1);
  });

  it('shares one synthesis between concurrent first requests', async () => {
    await dataSource.query(`DELETE FROM agents.voice_previews`);
    const [a, b] = await Promise.all([
      service.preview(partner('standard'), 'p', NOVA),
      service.preview(partner('premium'), 'q', NOVA),
    ]);
    expect(a.wavBase64).toBe(b.wavBase64);
    expect(asks).toHaveLength(1);
  });

  it('synthesises again once the voice changes', async () => {
    await service.preview(partner('standard'), 'p', NOVA);
    asks.length = 0;
    await dataSource.manager.update(Voice, { id: NOVA }, { previewText: 'A new preview sentence.' });
    const changed = await service.preview(partner('standard'), 'p', NOVA);
    expect(asks).toHaveLength(1);
    expect(wordsOf(changed.wavBase64)).toEqual(['A new preview sentence.']);
  });

  it('answers a provider failure as 502 naming the provider, and caches nothing', async () => {
    await dataSource.query(`DELETE FROM agents.voice_previews`);
    failing = true;
    const error = await service.preview(partner('standard'), 'p', NOVA).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(502);
    expect((error as AppError).message).toMatch(/^OpenAI could not speak the preview: .*500/);
    expect((error as AppError).message).not.toContain(KEY);
    expect(await dataSource.query(`SELECT 1 FROM agents.voice_previews`)).toEqual([]);
  });

  it('stands in with the offline engine when no key serves the tier, and refuses when that is off', async () => {
    process.env.SPEECH_OPENAI_TIERS = 'enterprise';
    service = serviceNow();
    const standIn = await service.preview(partner('standard'), 'p', NOVA);
    expect(standIn.engine).toBe('offline');
    expect(asks).toHaveLength(0);
    expect(wordsOf(standIn.wavBase64)).toHaveLength(1);

    // As the voice service's calls speak it in development: local speech (eSpeak NG), a voice of its own.
    process.env.SPEECH_STAND_IN = 'local';
    service = serviceNow();
    const local = await service.preview(partner('standard'), 'p', NOVA);
    expect(local.engine).toBe('local');
    expect(asks).toHaveLength(0);
    const wav = Buffer.from(local.wavBase64, 'base64');
    expect(wav.toString('latin1', 0, 4)).toBe('RIFF');
    // Speech, not a stand-in's in-band words: a second or more at 8 kHz.
    expect(wav.length).toBeGreaterThan(16_000);
    expect(wordsOf(local.wavBase64)).toEqual([]);
    process.env.SPEECH_STAND_IN = 'offline';

    process.env.SPEECH_OFFLINE_STAND_IN = 'false';
    service = serviceNow();
    const refused = await service.preview(partner('standard'), 'p', NOVA).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe(ErrorCode.INVALID_STATE);
    expect((refused as AppError).message).toMatch(/needs a key for OpenAI/);
  });

  it('hides voices the partner is not entitled to, and retired ones', async () => {
    const premium = await service.preview(partner('standard'), 'p', RACHEL).catch((e: unknown) => e);
    expect((premium as AppError).code).toBe(ErrorCode.NOT_FOUND);
    expect((await service.preview(partner('premium'), 'p', RACHEL)).engine).toBe('offline');
    await dataSource.manager.update(Voice, { id: RACHEL }, { status: 'retired' });
    const retired = await service.preview(partner('enterprise'), 'p', RACHEL).catch((e: unknown) => e);
    expect((retired as AppError).code).toBe(ErrorCode.NOT_FOUND);
    const unknown = await service.preview(partner('enterprise'), 'p', 'vc_nope').catch((e: unknown) => e);
    expect((unknown as AppError).code).toBe(ErrorCode.NOT_FOUND);
  });
});
