import { SarvamFake, speechPcm } from '../testing';
import { ProviderError } from '../provider-error';
import { sttPluginContract } from '../testing/stt-plugin-contract';
import { speechPlugin, sttCapabilities, ttsCapabilities } from '../registry';
import type { SttSession } from '../stt-provider';
import { SarvamSttProvider, SarvamTtsProvider, sarvamLanguageCode, sarvamPlugin } from '.';

const KEY = 'sarvam-test-key';
let fake: SarvamFake;

beforeAll(async () => {
  fake = await SarvamFake.start({ apiKey: KEY, idleTimeoutMs: 1000 });
});

afterAll(() => fake.close());

afterEach(() => fake.heal());

const provider = (apiKey = KEY, timeoutMs = 2000) =>
  new SarvamSttProvider({ baseUrl: fake.baseUrl, apiKey, timeoutMs });

/** Pushes the offline engine's speech of `text` in 20 ms frames, as the call's media does. */
async function say(session: SttSession, text: string): Promise<void> {
  const pcm = await speechPcm(text, 8000);
  for (let at = 0; at < pcm.length; at += 160) session.push(pcm.subarray(at, at + 160));
}

/** Quiet frames: the caller pausing. */
function pause(session: SttSession, ms: number): void {
  for (let at = 0; at < ms; at += 20) session.push(new Int16Array(160));
}

const until = async (check: () => boolean, ms = 2000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

sttPluginContract({ plugin: sarvamPlugin, startFake: ({ apiKey }) => SarvamFake.start({ apiKey }) });

describe('sarvamLanguageCode', () => {
  it("names the agent's one language as Sarvam's locale, else asks Sarvam to detect", () => {
    expect(sarvamLanguageCode(['hi'])).toBe('hi-IN');
    expect(sarvamLanguageCode(['hinglish'])).toBe('hi-IN');
    expect(sarvamLanguageCode(['ta'])).toBe('ta-IN');
    expect(sarvamLanguageCode(['en'])).toBe('en-IN');
    expect(sarvamLanguageCode(['hinglish', 'en'])).toBe('unknown');
    expect(sarvamLanguageCode([])).toBe('unknown');
    expect(sarvamLanguageCode(['fr'])).toBe('unknown');
  });
});

describe('SarvamSttProvider', () => {
  it("streams base64 PCM with the documented query and answers finish() with what was said, in the agent's language", async () => {
    const session = await provider().open({
      languages: ['hi'],
      providerOptions: { high_vad_sensitivity: true },
    });
    const text = 'नमस्ते, मुझे कल की बुकिंग चाहिए।';
    await say(session, text);
    await expect(session.finish()).resolves.toBe(text);
    expect(session.language).toBe('hi');

    const stream = fake.sttStreams.at(-1)!;
    expect(stream.apiKey).toBe(KEY);
    expect(stream.query).toEqual({
      'language-code': 'hi-IN',
      model: 'saaras:v3',
      mode: 'transcribe',
      sample_rate: '16000',
      input_audio_codec: 'pcm_s16le',
      vad_signals: 'true',
      flush_signal: 'true',
      high_vad_sensitivity: 'true',
    });
    expect(stream.audioFormats.every((f) => f.sample_rate === 16000 && f.encoding === 'audio/wav')).toBe(
      true,
    );
    // The flush came after every sample spoken (8 kHz resampled to 16 kHz: twice the bytes).
    const spoken = (await speechPcm(text, 8000)).length;
    expect(stream.flushes).toEqual([stream.audioBytes]);
    expect(Math.abs(stream.audioBytes - spoken * 4)).toBeLessThanOrEqual(4);

    await session.close();
    await until(() => stream.closed);
  });

  it('detects the language of each utterance when the agent speaks two (code-switching)', async () => {
    const session = await provider().open({ languages: ['hinglish', 'en'], model: 'saarika:v2.5' });
    const stream = fake.sttStreams.at(-1)!;
    expect(stream.query['language-code']).toBe('unknown');
    expect(stream.query.model).toBe('saarika:v2.5');
    expect(stream.query.mode).toBeUndefined();

    await say(session, 'I would like a table for two.');
    await expect(session.finish()).resolves.toBe('I would like a table for two.');
    expect(session.language).toBe('en');

    await say(session, 'Haan, kal shaam saat baje theek hai.');
    await expect(session.finish()).resolves.toBe('Haan, kal shaam saat baje theek hai.');
    expect(session.language).toBe('hinglish');

    await say(session, 'Sure, thank you.');
    await expect(session.finish()).resolves.toBe('Sure, thank you.');
    expect(session.language).toBe('en');
    await session.close();
  });

  it("reports each of Sarvam's segments as partial text and answers at once when they cover the utterance", async () => {
    const session = await provider().open({ languages: ['en'] });
    const partials: string[] = [];
    session.onPartial = (text) => partials.push(text);
    await say(session, 'My name is Asha.');
    pause(session, 1100);
    await until(() => partials.length === 1);
    await say(session, 'I am calling about my order.');
    pause(session, 1100);
    await until(() => partials.length === 2);
    expect(partials).toEqual(['My name is Asha.', 'My name is Asha. I am calling about my order.']);
    const started = Date.now();
    await expect(session.finish()).resolves.toBe('My name is Asha. I am calling about my order.');
    expect(Date.now() - started).toBeLessThan(200);
    // Sarvam's VAD already ended the segments: no flush was needed.
    expect(fake.sttStreams.at(-1)!.flushes).toEqual([]);
    await session.close();
  });

  it('resolves an utterance with no speech after a short grace', async () => {
    const session = await provider().open({ languages: ['en'] });
    pause(session, 200);
    const started = Date.now();
    await expect(session.finish()).resolves.toBe('');
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    await session.close();
  });

  it('takes a refused flush of no speech as an empty utterance, and carries on with a new stream', async () => {
    const strict = await SarvamFake.start({ apiKey: KEY, emptyFlush: 'error' });
    try {
      const session = await new SarvamSttProvider({
        baseUrl: strict.baseUrl,
        apiKey: KEY,
        timeoutMs: 2000,
      }).open({
        languages: ['en'],
      });
      // The stream must have lived a moment for its close to count as idle rather than failing.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      pause(session, 200);
      await expect(session.finish()).resolves.toBe('');
      await say(session, 'Are you there?');
      await expect(session.finish()).resolves.toBe('Are you there?');
      expect(strict.sttStreams).toHaveLength(2);
      await session.close();
    } finally {
      await strict.close();
    }
  });

  it('opens a new stream for the next utterance when Sarvam closed an idle one', async () => {
    const session = await provider().open({ languages: ['en'] });
    await say(session, 'First question.');
    await expect(session.finish()).resolves.toBe('First question.');
    const first = fake.sttStreams.at(-1)!;
    // The fake closes streams idle for a second, as Sarvam closes idle ones.
    await until(() => first.closed);
    await say(session, 'Second question.');
    await expect(session.finish()).resolves.toBe('Second question.');
    expect(fake.sttStreams.at(-1)).not.toBe(first);
    await session.close();
  });

  it('fails as ProviderError when the key is refused', async () => {
    const started = Date.now();
    const refused = await provider('wrong-key')
      .open({ languages: ['en'] })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ProviderError);
    expect(refused).toMatchObject({ provider: 'stt', name: 'sarvam' });
    expect((refused as Error).message).toContain('403');
    expect((refused as Error).message).not.toContain('wrong-key');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('fails as ProviderError when an answer errors or hangs', async () => {
    let session = await provider().open({ languages: ['en'] });
    fake.fail('error');
    await say(session, 'One two three.');
    let error = await session.finish().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as Error).message).toContain('Internal server error');
    await session.close();

    fake.heal();
    session = await provider(KEY, 300).open({ languages: ['en'] });
    fake.fail('hang');
    await say(session, 'Four five six.');
    const started = Date.now();
    error = await session.finish().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as Error).message).toContain('timed out');
    expect(Date.now() - started).toBeLessThan(600);
    await session.close();
  });
});

describe('sarvamPlugin', () => {
  it('checks a key with its cheapest authenticated call, and offers both capabilities', async () => {
    const check = (apiKey: string) =>
      sarvamPlugin.checkKey({ apiKey, baseUrl: fake.baseUrl, timeoutMs: 2000 });
    await expect(check(KEY)).resolves.toEqual({ ok: true });
    await expect(check('nope')).resolves.toMatchObject({
      ok: false,
      reason: 'rejected',
      status: 403,
      message: 'Invalid API key or subscription key',
    });
    expect(fake.requests.at(-1)).toMatchObject({ method: 'POST', path: '/text-lid', apiKey: 'nope' });
    expect(sarvamPlugin.stt?.codeSwitching).toBe(true);
    expect(sarvamPlugin.tts?.languages).toEqual(expect.arrayContaining(['hi', 'hinglish', 'ta', 'en']));
  });

  it("is the registry's sarvam, for both speech to text and text to speech", () => {
    expect(speechPlugin('sarvam')).toBe(sarvamPlugin);
    const config = { baseUrl: fake.baseUrl, apiKey: KEY, timeoutMs: 1000 };
    expect(sttCapabilities('sarvam')?.create(config)).toBeInstanceOf(SarvamSttProvider);
    expect(ttsCapabilities('sarvam')?.create(config)).toBeInstanceOf(SarvamTtsProvider);
  });
});
