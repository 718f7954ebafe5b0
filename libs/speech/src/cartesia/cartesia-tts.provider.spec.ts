import { closeOfflineSpeech, rms } from '@vap/media';
import { createSpeechProviders } from '../default-speech';
import { ProviderError } from '../provider-error';
import { speechPlugin, ttsCapabilities } from '../registry';
import type { NetworkProviderConfig } from '../speech-settings';
import { CartesiaFake, FakeRecogniser, type CartesiaFakeOptions } from '../testing';
import { ttsPluginContract } from '../testing/tts-plugin-contract';
import type { TtsRequest, TtsVoice } from '../tts-provider';
import { CARTESIA_VERSION, cartesiaPlugin, CartesiaTtsProvider } from './index';

const KEY = 'sk_car_test';
const VOICE: TtsVoice = {
  providerVoiceId: 'f786b574-daa5-4673-aa0c-cbe3e8534c02',
  model: 'sonic-3',
  speed: 1,
  volume: 1,
  language: 'en-IN',
};

let fake: CartesiaFake;

async function startFake(options: Partial<CartesiaFakeOptions> = {}): Promise<CartesiaFake> {
  await fake?.close();
  fake = await CartesiaFake.start({ apiKey: KEY, ...options });
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
  const provider = new CartesiaTtsProvider(config(overrides));
  for await (const chunk of provider.synthesize({ voice: VOICE, ...request }, signal)) chunks.push(chunk);
  return chunks;
}

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
  expect(error).toMatchObject({ provider: 'tts', name: 'cartesia', reason: 'tts_provider_error:cartesia' });
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
  plugin: cartesiaPlugin,
  voice: VOICE,
  startFake: ({ apiKey, slow }) =>
    CartesiaFake.start({ apiKey, ...(slow ? { chunks: 12, chunkIntervalMs: 100 } : {}) }),
});

describe('CartesiaTtsProvider', () => {
  it('sends the documented generation request and speaks the text as 8 kHz PCM', async () => {
    const text = 'Namaste, your order ships today.';
    const chunks = await collect({ text, voice: { ...VOICE, speed: 1.2, language: 'hinglish' } });

    const [connection] = fake.connections;
    expect(connection).toMatchObject({ apiKey: KEY, auth: 'bearer', version: CARTESIA_VERSION });
    const [request] = connection.messages;
    expect(request).toEqual({
      context_id: expect.any(String),
      model_id: 'sonic-3',
      transcript: text,
      voice: { mode: 'id', id: VOICE.providerVoiceId },
      output_format: { container: 'raw', encoding: 'pcm_s16le', sample_rate: 16000 },
      language: 'hi',
      generation_config: { speed: 1.2 },
      continue: false,
    });
    expect(fake.contexts[0]).toMatchObject({
      transcripts: [text],
      spoken: [text],
      done: true,
      cancelled: false,
    });
    // Done: the socket is closed normally, with no cancellation sent.
    await until(() => connection.closed !== undefined);
    expect(connection.closed?.code).toBe(1000);
    expect(connection.messages).toHaveLength(1);

    expect(chunks.every((chunk) => chunk.length > 0 && chunk.length <= 800)).toBe(true);
    expect(readBack(chunks)).toBe(text);
  });

  it('maps speed per model family and leaves out languages Cartesia does not take', async () => {
    await collect({ text: 'Hello.', voice: { ...VOICE, model: 'sonic-2', speed: 0.8, language: 'ta-IN' } });
    await collect(
      { text: 'Hello.', voice: { ...VOICE, speed: 3, language: 'sw-KE' } },
      { model: 'sonic-3.5' },
    );
    await collect({ text: 'Hello.', voice: { ...VOICE, model: '', language: 'bn' } });
    const sent = fake.connections.map((c) => c.messages[0]);
    expect(sent[0]).toMatchObject({ model_id: 'sonic-2', speed: 'slow', language: 'ta' });
    expect(sent[0].generation_config).toBeUndefined();
    expect(sent[1]).toMatchObject({ model_id: 'sonic-3.5', generation_config: { speed: 1.5 } });
    expect(sent[1].language).toBeUndefined();
    expect(sent[2]).toMatchObject({ model_id: 'sonic-3', language: 'bn' });
    expect(sent[2].generation_config).toBeUndefined();
  });

  it('streams: the first audio comes out before the provider has sent its last chunk', async () => {
    await startFake({ chunks: 6, chunkIntervalMs: 60 });
    const text = 'This sentence arrives in several pieces.';
    const chunks: Int16Array[] = [];
    let sentAtFirst: number | undefined;
    for await (const chunk of new CartesiaTtsProvider(config()).synthesize({ text, voice: VOICE })) {
      sentAtFirst ??= fake.contexts[0].chunksSent;
      chunks.push(chunk);
    }
    expect(fake.contexts[0]).toMatchObject({ chunksPlanned: 6, chunksSent: 6 });
    expect(sentAtFirst).toBeLessThan(6);
    expect(readBack(chunks)).toBe(text);
  });

  it('cancels the context and closes the socket at a barge-in', async () => {
    await startFake({ chunks: 10, chunkIntervalMs: 80 });
    const controller = new AbortController();
    let abortedAt = 0;
    let chunks = 0;
    for await (const _chunk of new CartesiaTtsProvider(config({ timeoutMs: 5000 })).synthesize(
      { text: 'A long answer the caller interrupts.', voice: VOICE },
      controller.signal,
    )) {
      chunks++;
      abortedAt = Date.now();
      controller.abort();
    }
    expect(chunks).toBeGreaterThan(0);
    // The stream ends at the abort, not when the provider would have finished (10 chunks 80 ms apart).
    expect(Date.now() - abortedAt).toBeLessThan(300);
    const [connection] = fake.connections;
    await until(() => connection.closed !== undefined);
    const [context] = fake.contexts;
    expect(connection.messages[1]).toEqual({ context_id: context.contextId, cancel: true });
    expect(context).toMatchObject({ cancelled: true, done: false });
    expect(context.chunksSent).toBeLessThan(context.chunksPlanned);
  });

  it('fails as ProviderError for a wrong key, an error message, a dropped socket and no server', async () => {
    const refused = await failure(collect({ text: 'Hello.' }, { apiKey: 'sk_car_wrong' }));
    expect(refused.message).toContain('HTTP 401: Invalid API key');
    expect(fake.upgrades[0]).toEqual({ apiKey: 'sk_car_wrong', refused: 401 });

    fake.fail('error', { times: 1 });
    const error = await failure(collect({ text: 'Hello.' }));
    expect(error.message).toContain('500 Internal Server Error: the fake failed');

    fake.fail('close', { times: 1 });
    await failure(collect({ text: 'Hello.' }));

    expect(readBack(await collect({ text: 'Back again.' }))).toBe('Back again.');

    const baseUrl = fake.baseUrl;
    await fake.close();
    await failure(collect({ text: 'Hello.' }, { baseUrl }));
  });

  it('applies pronunciations as whole-word aliases (Cartesia takes plain text)', async () => {
    const chunks = await collect({
      text: 'Call ACME about the Acmeville order.',
      pronunciations: [
        { word: 'acme', alias: 'Ack Me' },
        { word: 'order', ipa: 'ˈɔːdə' },
      ],
    });
    expect(fake.contexts[0].transcripts).toEqual(['Call Ack Me about the Acmeville order.']);
    expect(readBack(chunks)).toBe('Call Ack Me about the Acmeville order.');
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

describe('cartesiaPlugin', () => {
  const check = (apiKey: string, baseUrl = fake.baseUrl, timeoutMs = 2000) =>
    cartesiaPlugin.checkKey({ apiKey, baseUrl, timeoutMs });

  it('is registered, and builds the provider the settings name', () => {
    expect(speechPlugin('cartesia')).toBe(cartesiaPlugin);
    expect(ttsCapabilities('cartesia')).toMatchObject({ streaming: true, defaultModel: 'sonic-3' });
    const { tts } = createSpeechProviders({
      STT_PROVIDER: 'offline',
      TTS_PROVIDER: 'cartesia',
      TTS_BASE_URL: 'https://api.cartesia.ai',
      TTS_API_KEY: 'sk_car',
      PROVIDER_TIMEOUT_MS: 5000,
    });
    expect(tts[0]).toBeInstanceOf(CartesiaTtsProvider);
  });

  it('checks a key with GET /voices: ok, rejected with Cartesia’s words, a server failing or hanging', async () => {
    await expect(check(KEY)).resolves.toEqual({ ok: true });
    await expect(check(KEY, `${fake.baseUrl}/`)).resolves.toEqual({ ok: true });
    expect(fake.requests[0]).toEqual({
      method: 'GET',
      path: '/voices',
      apiKey: KEY,
      version: CARTESIA_VERSION,
      status: 200,
    });
    await expect(check('sk_car_wrong')).resolves.toEqual({
      ok: false,
      reason: 'rejected',
      status: 401,
      message: 'Invalid API key',
    });
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
