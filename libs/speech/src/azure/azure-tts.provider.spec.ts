import { request } from 'undici';
import { closeOfflineSpeech } from '@vap/media';
import { ProviderError } from '../provider-error';
import { speechPlugin, ttsCapabilities } from '../registry';
import { AzureTtsFake, FakeRecogniser, readAzureSsml } from '../testing';
import { ttsPluginContract } from '../testing/tts-plugin-contract';
import type { TtsVoice } from '../tts-provider';
import { azurePlugin } from '.';
import { azureLocale, azureSsml, xmlEscape } from './azure-ssml';
import { AZURE_OUTPUT_FORMAT, AzureTtsProvider, azureBaseUrl } from './azure-tts.provider';

const KEY = 'azure-secret-key';
const VOICE: TtsVoice = {
  providerVoiceId: 'en-IN-NeerjaNeural',
  model: 'neural',
  speed: 1,
  volume: 1,
  language: 'en-IN',
};

let fake: AzureTtsFake;

beforeEach(async () => {
  fake = await AzureTtsFake.start({ apiKey: KEY });
});

afterEach(() => fake.close());
afterAll(() => closeOfflineSpeech());

const provider = (
  overrides: { apiKey?: string; timeoutMs?: number; baseUrl?: string; region?: string } = {},
) =>
  new AzureTtsProvider({
    baseUrl: fake.baseUrl,
    apiKey: KEY,
    timeoutMs: 3000,
    region: 'centralindia',
    ...overrides,
  });

async function collect(chunks: AsyncIterable<Int16Array>): Promise<Int16Array[]> {
  const out: Int16Array[] = [];
  for await (const chunk of chunks) out.push(chunk);
  return out;
}

function heard(chunks: Int16Array[]): string[] {
  const recogniser = new FakeRecogniser(8000);
  return chunks.flatMap((chunk) => recogniser.push(chunk));
}

ttsPluginContract({
  plugin: azurePlugin,
  voice: VOICE,
  config: { region: 'centralindia' },
  startFake: ({ apiKey, slow }) =>
    AzureTtsFake.start({ apiKey, pacing: slow ? { chunks: 12, delayMs: 100 } : undefined }),
});

describe('AzureTtsProvider against the Azure Speech fake', () => {
  it('posts SSML with the documented headers: key, ssml+xml, raw 8 kHz PCM, a User-Agent', async () => {
    await collect(
      provider().synthesize({
        text: 'Namaste, how can I help?',
        voice: { ...VOICE, speed: 1.25, volume: 0.8 },
      }),
    );
    expect(fake.requests).toHaveLength(1);
    const [seen] = fake.requests;
    expect(seen.status).toBe(200);
    expect(seen.subscriptionKey).toBe(KEY);
    expect(seen.contentType).toBe('application/ssml+xml');
    expect(seen.outputFormat).toBe(AZURE_OUTPUT_FORMAT);
    expect(AZURE_OUTPUT_FORMAT).toBe('raw-8khz-16bit-mono-pcm');
    expect(seen.userAgent).toBeTruthy();
    expect(seen.ssml).toEqual({
      lang: 'en-IN',
      voice: 'en-IN-NeerjaNeural',
      prosody: { rate: '+25%', volume: '-20%', pitch: undefined },
      subs: [],
      phonemes: [],
      text: 'Namaste, how can I help?',
    });
  });

  it('streams: the first audio comes out before the fake sends its last chunk, in pieces of at most 100 ms', async () => {
    const text = 'Your order has shipped and will reach you by Friday evening.';
    const chunks: Int16Array[] = [];
    let completeAtFirstAudio: boolean | undefined;
    for await (const chunk of provider().synthesize({ text, voice: VOICE })) {
      completeAtFirstAudio ??= fake.requests[0].complete;
      chunks.push(chunk);
    }
    expect(completeAtFirstAudio).toBe(false);
    expect(fake.requests[0].chunksSent).toBeGreaterThan(3);
    expect(Math.max(...chunks.map((c) => c.length))).toBeLessThanOrEqual(800);
    expect(heard(chunks)).toEqual([text]);
  });

  it('escapes the text and marks pronunciations as sub / phoneme, which Azure parses and speaks', async () => {
    const text = `Tom & Jerry's "Deals" <today>: AT&T costs < 5 > 3, ask Dr. Rao.`;
    const chunks = await collect(
      provider().synthesize({
        text,
        voice: VOICE,
        pronunciations: [
          { word: 'AT&T', alias: 'A T and T' },
          { word: 'Dr.', alias: 'Doctor' },
          { word: 'rao', ipa: 'raːw' },
          { word: '"Deals"', alias: `"Big" <deals> & 'more'` },
        ],
      }),
    );
    const [seen] = fake.requests;
    expect(seen.status).toBe(200);
    expect(seen.body).toContain('Tom &amp; Jerry&apos;s');
    expect(seen.body).toContain('&lt;today&gt;');
    expect(seen.ssml!.subs).toEqual([
      { text: '"Deals"', alias: `"Big" <deals> & 'more'` },
      { text: 'AT&T', alias: 'A T and T' },
      { text: 'Dr.', alias: 'Doctor' },
    ]);
    expect(seen.ssml!.phonemes).toEqual([{ text: 'Rao', alphabet: 'ipa', ph: 'raːw' }]);
    const spoken = `Tom & Jerry's "Big" <deals> & 'more' <today>: A T and T costs < 5 > 3, ask Doctor Rao.`;
    expect(seen.ssml!.text).toBe(spoken);
    expect(heard(chunks)).toEqual([spoken]);
  });

  it('leaves out characters XML cannot carry instead of failing the request', async () => {
    const chunks = await collect(
      provider().synthesize({ text: 'Bell\u0007 and \uD800 gone.', voice: VOICE }),
    );
    expect(fake.requests[0].status).toBe(200);
    expect(heard(chunks)).toEqual(['Bell and gone.']);
  });

  it('takes xml:lang from the voice language, else from the voice name, else from the spoken language', () => {
    expect(azureLocale({ language: 'en-in', providerVoiceId: 'x' })).toBe('en-IN');
    expect(azureLocale({ language: 'hinglish', providerVoiceId: 'hi-IN-SwaraNeural' })).toBe('hi-IN');
    expect(azureLocale({ language: 'ta', providerVoiceId: 'custom' })).toBe('ta-IN');
    expect(azureLocale({ language: '', providerVoiceId: 'custom' })).toBe('en-US');
    expect(azureLocale({ language: 'en"><x', providerVoiceId: 'custom' })).toBe('en-US');
    const ssml = azureSsml('Hi', {
      ...VOICE,
      providerVoiceId: 'hi-IN-SwaraNeural',
      language: 'hinglish',
      speed: 9,
      volume: 0,
    });
    expect(readAzureSsml(ssml)).toMatchObject({
      lang: 'hi-IN',
      voice: 'hi-IN-SwaraNeural',
      prosody: { rate: '+100%', volume: '-100%' },
    });
    expect(xmlEscape(`<a href="x">&'`)).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&apos;');
  });

  it('sends nothing for empty text (Azure would bill an empty document)', async () => {
    await expect(collect(provider().synthesize({ text: '  ', voice: VOICE }))).resolves.toEqual([]);
    expect(fake.requests).toHaveLength(0);
  });

  it('fails as ProviderError on a dropped stream and an unknown voice, and heals after the scripted failure', async () => {
    fake.fail('close', { times: 1 });
    const dropped = await collect(
      provider().synthesize({ text: 'A sentence that is cut.', voice: VOICE }),
    ).catch((e: unknown) => e);
    expect(dropped).toBeInstanceOf(ProviderError);

    const unknown = await collect(
      provider().synthesize({ text: 'Hi.', voice: { ...VOICE, providerVoiceId: 'xx-XX-NobodyNeural' } }),
    ).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(ProviderError);
    expect((unknown as Error).message).toContain('HTTP 400');

    expect(heard(await collect(provider().synthesize({ text: 'Back again.', voice: VOICE })))).toEqual([
      'Back again.',
    ]);
  });

  it('needs a region when the base URL is the regional template', async () => {
    expect(
      azureBaseUrl({ baseUrl: 'https://{region}.tts.speech.microsoft.com/', region: 'centralindia' }),
    ).toBe('https://centralindia.tts.speech.microsoft.com');
    const error = await collect(
      provider({ baseUrl: azurePlugin.defaultBaseUrl, region: undefined }).synthesize({
        text: 'Hi.',
        voice: VOICE,
      }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as Error).message).toContain('region');
  });
});

describe('the Azure fake refuses what Azure refuses', () => {
  const post = (body: string, headers: Record<string, string> = {}) =>
    request(`${fake.baseUrl}/cognitiveservices/v1`, {
      method: 'POST',
      headers: {
        'ocp-apim-subscription-key': KEY,
        'content-type': 'application/ssml+xml',
        'x-microsoft-outputformat': AZURE_OUTPUT_FORMAT,
        'user-agent': 'spec',
        ...headers,
      },
      body,
    });

  it('answers malformed SSML with 400 and an empty body', async () => {
    const voice = (inner: string) =>
      `<speak version="1.0" xml:lang="en-IN"><voice name="en-IN-NeerjaNeural">${inner}</voice></speak>`;
    for (const bad of [
      voice('Tom & Jerry'),
      voice('a < b'),
      voice('&nbsp;'),
      voice('<sub alias="x">y</phoneme>'),
      voice('<sub alias=x>y</sub>'),
      `<speak version="1.0" xml:lang="en-IN"><prosody rate="+5%">Hi</prosody></speak>`,
      `<speak version="1.0"><voice name="en-IN-NeerjaNeural">Hi</voice></speak>`,
    ]) {
      const res = await post(bad);
      expect({ bad, status: res.statusCode }).toEqual({ bad, status: 400 });
      expect(await res.body.text()).toBe('');
    }
    expect(fake.requests.every((r) => r.refusal && !r.ssml)).toBe(true);
    expect((await post(voice('Tom &amp; Jerry'))).statusCode).toBe(200);
  });

  it('answers a wrong content type with 415, an unknown format with 400 and a wrong key with 401', async () => {
    const ssml = azureSsml('Hi', VOICE);
    expect((await post(ssml, { 'content-type': 'text/plain' })).statusCode).toBe(415);
    expect((await post(ssml, { 'x-microsoft-outputformat': 'raw-9khz-3bit' })).statusCode).toBe(400);
    const refused = await post(ssml, { 'ocp-apim-subscription-key': 'nope' });
    expect(refused.statusCode).toBe(401);
    expect(await refused.body.json()).toMatchObject({ error: { code: '401' } });
  });
});

describe('azurePlugin', () => {
  it('is registered as a regional provider with SSML pronunciations', () => {
    const plugin = speechPlugin('azure');
    expect(plugin).toBe(azurePlugin);
    expect(plugin).toMatchObject({
      label: 'Azure Speech',
      needsRegion: true,
      defaultBaseUrl: 'https://{region}.tts.speech.microsoft.com',
    });
    expect(ttsCapabilities('azure')).toMatchObject({
      streaming: true,
      pronunciations: 'ssml',
      defaultModel: 'neural',
    });
    expect(ttsCapabilities('azure')!.languages).toEqual(
      expect.arrayContaining(['en', 'hi', 'hinglish', 'ta', 'bn']),
    );
    expect(plugin!.stt).toBeUndefined();
  });

  it('checks a key on the voices list: good, refused (quoting Azure), and no region', async () => {
    const check = (apiKey: string, baseUrl = fake.baseUrl, region?: string) =>
      azurePlugin.checkKey({ apiKey, baseUrl, region, timeoutMs: 1000 });
    await expect(check(KEY)).resolves.toEqual({ ok: true });
    const refused = await check('wrong');
    expect(refused).toMatchObject({ ok: false, reason: 'rejected', status: 401 });
    expect(refused.ok || refused.message).toContain('Access denied');
    expect(fake.voiceListRequests.map((r) => r.subscriptionKey)).toEqual([KEY, 'wrong']);
    await expect(check(KEY, azurePlugin.defaultBaseUrl)).resolves.toMatchObject({
      ok: false,
      reason: 'rejected',
    });
  });
});
