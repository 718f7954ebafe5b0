import { levelDbfs } from '@vap/media';
import { FakeRecogniser, SarvamFake, speechPcm } from '../testing';
import { ttsPluginContract } from '../testing/tts-plugin-contract';
import { ProviderError } from '../provider-error';
import type { TtsRequest, TtsVoice } from '../tts-provider';
import { substituteAliases } from '../pronunciation-match';
import { sarvamPlugin, SarvamTtsProvider, sarvamTargetLanguage } from '.';

const KEY = 'sarvam-test-key';
let fake: SarvamFake;

beforeAll(async () => {
  fake = await SarvamFake.start({ apiKey: KEY });
});

afterAll(() => fake.close());

afterEach(() => fake.heal());

const voice = (over: Partial<TtsVoice> = {}): TtsVoice => ({
  providerVoiceId: 'anushka',
  model: 'bulbul:v2',
  speed: 1,
  volume: 1,
  language: 'hi-IN',
  ...over,
});

const provider = (apiKey = KEY, timeoutMs = 2000) =>
  new SarvamTtsProvider({ baseUrl: fake.baseUrl, apiKey, timeoutMs });

async function collect(request: TtsRequest, apiKey = KEY, timeoutMs = 2000, signal?: AbortSignal) {
  const chunks: Int16Array[] = [];
  for await (const chunk of provider(apiKey, timeoutMs).synthesize(request, signal)) chunks.push(chunk);
  return chunks;
}

const concat = (chunks: Int16Array[]) => {
  const out = new Int16Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
};

/** The words a listener on the call hears in the audio. */
const heard = (pcm: Int16Array) => new FakeRecogniser(8000).push(pcm).join(' ');

// Sarvam's fake streams as fast as the socket takes it: `slow` changes nothing, the socket closes at any end.
ttsPluginContract({
  plugin: sarvamPlugin,
  voice: voice(),
  startFake: ({ apiKey }) => SarvamFake.start({ apiKey }),
});

describe('sarvamTargetLanguage and substituteAliases', () => {
  it("maps a voice's language to Sarvam's locale", () => {
    expect(sarvamTargetLanguage('hi-IN')).toBe('hi-IN');
    expect(sarvamTargetLanguage('hinglish')).toBe('hi-IN');
    expect(sarvamTargetLanguage('ta')).toBe('ta-IN');
    expect(sarvamTargetLanguage('en-US')).toBe('en-IN');
    expect(sarvamTargetLanguage('fr-FR')).toBe('en-IN');
  });

  it('replaces whole words, in any case, and leaves IPA-only entries and regex characters alone', () => {
    const entries = [
      { word: 'Dr.', alias: 'Doctor' },
      { word: 'acme', alias: 'Aakmee' },
      { word: 'Rao', ipa: 'ɾaːoː' },
      { word: 'नमस्ते', alias: 'नमस्कार' },
    ];
    expect(substituteAliases('ACME, Dr. Rao; acmex. नमस्ते!', entries)).toBe(
      'Aakmee, Doctor Rao; acmex. नमस्कार!',
    );
  });
});

describe('SarvamTtsProvider', () => {
  it('streams the text back in several chunks of 8 kHz PCM, configured as its reference documents', async () => {
    const text = 'नमस्ते, आपकी बुकिंग कल शाम सात बजे की है।';
    const chunks = await collect({ text, voice: voice({ speed: 1.2, volume: 1.5 }) });
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.every((c) => c.length <= 800)).toBe(true);
    const audio = concat(chunks);
    expect(audio).toEqual(await speechPcm(text, 8000));
    expect(heard(audio)).toBe(text);

    const stream = fake.ttsStreams.at(-1)!;
    expect(stream.apiKey).toBe(KEY);
    expect(stream.query).toEqual({ model: 'bulbul:v2', send_completion_event: 'true' });
    expect(stream.config).toEqual({
      target_language_code: 'hi-IN',
      speaker: 'anushka',
      pace: 1.2,
      speech_sample_rate: '8000',
      output_audio_codec: 'linear16',
      loudness: 1.5,
    });
    expect(stream.texts).toEqual([text]);
    expect(stream.flushes).toBe(1);
    // The socket is released once the audio is done.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stream.closed).toBe(true);
  });

  it("says dictionary aliases, clamps pace to the model's range and applies volume itself where the model has no loudness", async () => {
    const text = 'Welcome to Acme.';
    const loud = concat(
      await collect({
        text,
        voice: voice({
          model: 'bulbul:v3',
          providerVoiceId: 'shubh',
          speed: 3,
          volume: 0.5,
          language: 'en-IN',
        }),
        pronunciations: [{ word: 'acme', alias: 'Aakmee' }],
      }),
    );
    const stream = fake.ttsStreams.at(-1)!;
    expect(stream.query.model).toBe('bulbul:v3');
    expect(stream.config).toMatchObject({ pace: 2, speaker: 'shubh', target_language_code: 'en-IN' });
    expect(stream.config).not.toHaveProperty('loudness');
    expect(stream.texts).toEqual(['Welcome to Aakmee.']);
    const plain = await speechPcm('Welcome to Aakmee.', 8000);
    expect(levelDbfs(loud)).toBeCloseTo(levelDbfs(plain) - 6.02, 0);
  });

  it('fails as ProviderError for a refused key, an error, a refused config and a dropped socket', async () => {
    const request = { text: 'Hello there.', voice: voice() };
    let error = await collect(request, 'wrong-key').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ provider: 'tts', name: 'sarvam' });
    expect((error as Error).message).toContain('403');
    expect((error as Error).message).not.toContain('wrong-key');

    error = await collect({ text: 'Hello.', voice: voice({ providerVoiceId: 'nobody' }) }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as Error).message).toContain('speaker nobody is not compatible');

    fake.fail('error');
    error = await collect(request).catch((e: unknown) => e);
    expect((error as Error).message).toContain('Internal server error');

    // The synthesis starts, then the socket drops: the first audio went out, then the failure.
    fake.fail('close', { times: 1 });
    const got: Int16Array[] = [];
    error = await (async () => {
      for await (const chunk of provider().synthesize(request)) got.push(chunk);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(got.length).toBeGreaterThan(0);

    // Healed by itself after the one failure.
    expect(heard(concat(await collect(request)))).toBe('Hello there.');
  });
});
