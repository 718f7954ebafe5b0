import { closeOfflineSpeech, rms } from '@vap/media';
import { createSpeechProviders } from '../default-speech';
import { ProviderError } from '../provider-error';
import { speechPlugin, ttsCapabilities } from '../registry';
import type { NetworkProviderConfig } from '../speech-settings';
import { ElevenLabsFake, FakeRecogniser, type ElevenLabsFakeOptions } from '../testing';
import { ttsPluginContract } from '../testing/tts-plugin-contract';
import type { TtsRequest, TtsVoice } from '../tts-provider';
import { elevenLabsPlugin, ElevenLabsTtsProvider } from './index';

const KEY = 'xi-test-key';
const VOICE: TtsVoice = {
  providerVoiceId: 'JBFqnCBsd6RMkjVDRZzb',
  model: 'eleven_flash_v2_5',
  speed: 1,
  volume: 1,
  language: 'en-IN',
};

let fake: ElevenLabsFake;

async function startFake(options: Partial<ElevenLabsFakeOptions> = {}): Promise<ElevenLabsFake> {
  await fake?.close();
  fake = await ElevenLabsFake.start({ apiKey: KEY, restrictedApiKey: 'xi-scoped-key', ...options });
  return fake;
}

beforeEach(() => startFake());
afterEach(() => fake.close());
afterAll(() => closeOfflineSpeech());

function config(overrides: Partial<NetworkProviderConfig> = {}): NetworkProviderConfig {
  return { baseUrl: fake.baseUrl, apiKey: KEY, timeoutMs: 3000, ...overrides };
}

async function collect(
  request: Partial<TtsRequest> & { text: string },
  overrides: Partial<NetworkProviderConfig> = {},
  signal?: AbortSignal,
): Promise<Int16Array[]> {
  const chunks: Int16Array[] = [];
  const provider = new ElevenLabsTtsProvider(config(overrides));
  for await (const chunk of provider.synthesize({ voice: VOICE, ...request }, signal)) chunks.push(chunk);
  return chunks;
}

/** The words a fake STT reads from the 8 kHz audio. */
function readBack(chunks: Int16Array[]): string {
  const recogniser = new FakeRecogniser(8000);
  return chunks.flatMap((chunk) => recogniser.push(chunk)).join(' ');
}

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderError);
  expect(error).toMatchObject({
    provider: 'tts',
    name: 'elevenlabs',
    reason: 'tts_provider_error:elevenlabs',
  });
  return error as ProviderError;
}

async function until(condition: () => boolean, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

ttsPluginContract({
  plugin: elevenLabsPlugin,
  voice: VOICE,
  startFake: ({ apiKey, slow }) =>
    ElevenLabsFake.start({ apiKey, ...(slow ? { chunks: 12, chunkIntervalMs: 100 } : {}) }),
});

describe('ElevenLabsTtsProvider', () => {
  it('sends the documented stream-input request and speaks the text as 8 kHz PCM', async () => {
    const text = 'Namaste, your order ships today.';
    const chunks = await collect({ text, voice: { ...VOICE, speed: 1.1, language: 'hi-IN' } });

    expect(fake.upgrades).toEqual([
      { path: `/v1/text-to-speech/${VOICE.providerVoiceId}/stream-input`, apiKey: KEY, refused: undefined },
    ]);
    const [stream] = fake.streams;
    expect(stream).toMatchObject({
      apiKey: KEY,
      voiceId: VOICE.providerVoiceId,
      modelId: 'eleven_flash_v2_5',
      outputFormat: 'pcm_16000',
      languageCode: 'hi',
      texts: [`${text} `],
      spoken: [text],
    });
    expect(stream.query.auto_mode).toBe('true');
    expect(stream.query.enable_ssml_parsing).toBeUndefined();
    // The blank first message carries the voice settings; the text is flushed; the empty text ends the input.
    expect(stream.messages).toEqual([
      { text: ' ', voice_settings: { speed: 1.1 } },
      { text: `${text} `, flush: true },
      { text: '' },
    ]);
    // The stream ended normally once the final message came.
    await until(() => stream.closed !== undefined);
    expect(stream.closed?.code).toBe(1000);

    expect(chunks.every((chunk) => chunk.length > 0 && chunk.length <= 800)).toBe(true);
    expect(readBack(chunks)).toBe(text);
  });

  it('sends language_code only to the models that take it, and the deployment model over the voice’s', async () => {
    await collect({
      text: 'Hello there.',
      voice: { ...VOICE, model: 'eleven_multilingual_v2', language: 'ta-IN' },
    });
    await collect(
      { text: 'Hello there.', voice: { ...VOICE, language: 'hinglish' } },
      { model: 'eleven_turbo_v2_5' },
    );
    // A language the model does not speak is left to the model.
    await collect({ text: 'Hello there.', voice: { ...VOICE, language: 'mr-IN' } });
    expect(fake.streams.map((s) => [s.modelId, s.languageCode])).toEqual([
      ['eleven_multilingual_v2', undefined],
      ['eleven_turbo_v2_5', 'hi'],
      ['eleven_flash_v2_5', undefined],
    ]);
    // Speed is kept to the API's range; at 1 no voice settings are sent at all.
    await collect({ text: 'Slowly.', voice: { ...VOICE, speed: 0.25 } });
    expect(fake.streams[3].messages[0]).toEqual({ text: ' ', voice_settings: { speed: 0.7 } });
    expect(fake.streams[2].messages[0]).toEqual({ text: ' ' });
  });

  it('streams: the first audio comes out before the provider has sent its last chunk', async () => {
    await startFake({ chunks: 6, chunkIntervalMs: 60 });
    const text = 'This sentence arrives in several pieces.';
    const provider = new ElevenLabsTtsProvider(config());
    const chunks: Int16Array[] = [];
    let sentAtFirst: number | undefined;
    for await (const chunk of provider.synthesize({ text, voice: VOICE })) {
      sentAtFirst ??= fake.streams[0].chunksSent;
      chunks.push(chunk);
    }
    const [stream] = fake.streams;
    expect(stream.chunksPlanned).toBe(6);
    expect(stream.chunksSent).toBe(6);
    expect(sentAtFirst).toBeLessThan(stream.chunksPlanned);
    expect(readBack(chunks)).toBe(text);
  });

  it('fails as ProviderError for a wrong key, an error message, a dropped stream and no server', async () => {
    const refused = await failure(collect({ text: 'Hello.' }, { apiKey: 'xi-wrong' }));
    expect(refused.message).toContain('HTTP 401: Invalid API key');
    expect(fake.upgrades[0]).toMatchObject({ apiKey: 'xi-wrong', refused: 401 });

    fake.fail('error', { times: 1 });
    expect((await failure(collect({ text: 'Hello.' }))).message).toContain(
      'We are sorry, something went wrong',
    );

    fake.fail('close', { times: 1 });
    await failure(collect({ text: 'Hello.' }));

    // Healed, it speaks again.
    expect(readBack(await collect({ text: 'Back again.' }))).toBe('Back again.');

    const baseUrl = fake.baseUrl;
    await fake.close();
    await failure(collect({ text: 'Hello.' }, { baseUrl }));
  });

  it('applies pronunciations: aliases as whole words, IPA as SSML phonemes for the models that take them', async () => {
    const aliased = await collect({
      text: 'Call ACME about the Acmeville order.',
      pronunciations: [
        { word: 'acme', alias: 'Ack Me' },
        { word: 'order', ipa: 'ˈɔːdə' },
      ],
    });
    expect(fake.streams[0].texts).toEqual(['Call Ack Me about the Acmeville order. ']);
    expect(fake.streams[0].query.enable_ssml_parsing).toBeUndefined();
    expect(readBack(aliased)).toBe('Call Ack Me about the Acmeville order.');

    const text = 'A <b> tomato & Dr. Rao';
    const marked = await collect({
      text,
      voice: { ...VOICE, model: 'eleven_flash_v2', language: 'en' },
      pronunciations: [
        { word: 'tomato', ipa: 'təˈmɑːtoʊ' },
        { word: 'Dr.', alias: 'Doctor' },
      ],
    });
    const [, stream] = fake.streams;
    expect(stream.query.enable_ssml_parsing).toBe('true');
    expect(stream.texts).toEqual([
      'A &lt;b&gt; <phoneme alphabet="ipa" ph="təˈmɑːtoʊ">tomato</phoneme> &amp; Doctor Rao ',
    ]);
    expect(readBack(marked)).toBe('A <b> tomato & Doctor Rao');
  });

  it('scales the samples by the voice’s volume', async () => {
    const full = (await collect({ text: 'Volume check.' })).flatMap((c) => Array.from(c));
    const half = (await collect({ text: 'Volume check.', voice: { ...VOICE, volume: 0.5 } })).flatMap((c) =>
      Array.from(c),
    );
    expect(half.length).toBe(full.length);
    expect(rms(Int16Array.from(half)) / rms(Int16Array.from(full))).toBeCloseTo(0.5, 1);
  });
});

describe('elevenLabsPlugin', () => {
  const check = (apiKey: string, baseUrl = fake.baseUrl, timeoutMs = 2000) =>
    elevenLabsPlugin.checkKey({ apiKey, baseUrl, timeoutMs });

  it('is registered, and builds the provider the settings name', () => {
    expect(speechPlugin('elevenlabs')).toBe(elevenLabsPlugin);
    expect(ttsCapabilities('elevenlabs')).toMatchObject({
      streaming: true,
      defaultModel: 'eleven_flash_v2_5',
    });
    expect(elevenLabsPlugin.tts?.languages).toEqual(['en', 'hinglish', 'hi', 'ta']);
    const { tts } = createSpeechProviders({
      STT_PROVIDER: 'offline',
      TTS_PROVIDER: 'elevenlabs,offline',
      TTS_BASE_URL: 'https://api.elevenlabs.io',
      TTS_API_KEY: 'xi',
      PROVIDER_TIMEOUT_MS: 5000,
    });
    expect(tts.map((p) => p.name)).toEqual(['elevenlabs', 'offline']);
    expect(tts[0]).toBeInstanceOf(ElevenLabsTtsProvider);
  });

  it('checks a key with GET /v1/user: ok, rejected with ElevenLabs’ words, a scoped key, a server failing or hanging', async () => {
    await expect(check(KEY)).resolves.toEqual({ ok: true });
    // The /v1 form of the base URL is the same API.
    await expect(check(KEY, `${fake.baseUrl}/v1/`)).resolves.toEqual({ ok: true });
    expect(fake.requests.slice(0, 2)).toEqual([
      { method: 'GET', path: '/v1/user', apiKey: KEY, status: 200 },
      { method: 'GET', path: '/v1/user', apiKey: KEY, status: 200 },
    ]);
    await expect(check('xi-wrong')).resolves.toEqual({
      ok: false,
      reason: 'rejected',
      status: 401,
      message: 'Invalid API key',
    });
    // A key scoped to speech alone cannot read the user, but ElevenLabs knows it: it is good, and speaks.
    await expect(check('xi-scoped-key')).resolves.toEqual({ ok: true });
    expect(readBack(await collect({ text: 'Scoped.' }, { apiKey: 'xi-scoped-key' }))).toBe('Scoped.');

    fake.fail('error', { times: 1 });
    await expect(check(KEY)).resolves.toMatchObject({ ok: false, reason: 'unreachable', status: 500 });
    fake.fail('hang', { times: 1 });
    await expect(check(KEY, fake.baseUrl, 200)).resolves.toEqual({
      ok: false,
      reason: 'unreachable',
      message: 'no answer within 200 ms',
      connection: 'timeout',
    });
  });
});
