import { AssemblyAiFake, speechPcm } from '../testing';
import { ProviderError } from '../provider-error';
import { sttPluginContract } from '../testing/stt-plugin-contract';
import { speechPlugin, sttCapabilities } from '../registry';
import type { SttSession } from '../stt-provider';
import {
  AssemblyAiSttProvider,
  assemblyAiPlugin,
  assemblyAiRestBase,
  assemblyAiStreamingBase,
  assemblyAiStreamingUrl,
} from '.';

const KEY = 'aai-test-key';
let fake: AssemblyAiFake;

beforeAll(async () => {
  fake = await AssemblyAiFake.start({ apiKey: KEY });
});

afterAll(() => fake.close());

afterEach(() => fake.heal());

const provider = (apiKey = KEY, timeoutMs = 2000) =>
  new AssemblyAiSttProvider({ baseUrl: fake.baseUrl, apiKey, timeoutMs });

/** Pushes the offline engine's speech of `text` in 20 ms frames, as the call's media does. */
async function say(session: SttSession, text: string): Promise<void> {
  const pcm = await speechPcm(text, 8000);
  for (let at = 0; at < pcm.length; at += 160) session.push(pcm.subarray(at, at + 160));
}

const until = async (check: () => boolean, ms = 2000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

/** The agent's turn options that keep the fake from ending turns on its own: only finish() ends them. */
const LONG_TURNS = { min_end_of_turn_silence_when_confident_ms: 2000 };

sttPluginContract({ plugin: assemblyAiPlugin, startFake: ({ apiKey }) => AssemblyAiFake.start({ apiKey }) });

describe('AssemblyAI streaming URL', () => {
  it('puts streaming on the streaming host of the REST base, and keeps one origin elsewhere', () => {
    expect(assemblyAiStreamingBase('https://api.assemblyai.com')).toBe('wss://streaming.assemblyai.com');
    expect(assemblyAiStreamingBase('https://api.eu.assemblyai.com/')).toBe(
      'wss://streaming.eu.assemblyai.com',
    );
    expect(assemblyAiStreamingBase('http://127.0.0.1:4010')).toBe('ws://127.0.0.1:4010');
    expect(assemblyAiRestBase('https://api.assemblyai.com/v2')).toBe('https://api.assemblyai.com');
    const url = new URL(
      assemblyAiStreamingUrl(
        { baseUrl: 'https://api.assemblyai.com', apiKey: 'k', timeoutMs: 1000, model: 'u3-rt-pro' },
        { languages: ['en'] },
      ),
    );
    expect(`${url.origin}${url.pathname}`).toBe('wss://streaming.assemblyai.com/v3/ws');
    expect(url.searchParams.get('speech_model')).toBe('u3-rt-pro');
    expect(url.searchParams.has('keyterms_prompt')).toBe(false);
  });

  it("keeps a base's path (a path-based proxy) for the key check and the stream", () => {
    expect(assemblyAiRestBase('http://127.0.0.1:4010/aai')).toBe('http://127.0.0.1:4010/aai');
    expect(assemblyAiRestBase('http://127.0.0.1:4010/aai/v2/')).toBe('http://127.0.0.1:4010/aai');
    expect(assemblyAiStreamingBase('http://127.0.0.1:4010/aai/')).toBe('ws://127.0.0.1:4010/aai');
    const proxied = new URL(
      assemblyAiStreamingUrl(
        { baseUrl: 'https://api.assemblyai.com/proxy', apiKey: 'k', timeoutMs: 1000 },
        { languages: ['en'] },
      ),
    );
    expect(`${proxied.origin}${proxied.pathname}`).toBe('wss://streaming.assemblyai.com/proxy/v3/ws');
  });
});

describe('AssemblyAiSttProvider', () => {
  it('streams 16 kHz PCM with the documented query, reports partials and answers finish() with what was said', async () => {
    const session = await provider().open({
      languages: ['en'],
      keyterms: ['Acme Dental', 'Dr. Rao'],
      model: 'universal-streaming-english',
      providerOptions: { ...LONG_TURNS, end_of_turn_confidence_threshold: 0.6 },
    });
    const partials: string[] = [];
    session.onPartial = (text) => partials.push(text);
    await say(session, 'Hello, I would like to book a table.');
    await until(() => partials.length > 0);
    await expect(session.finish()).resolves.toBe('Hello, I would like to book a table.');
    // Partials are the raw words so far, growing.
    expect(partials[0]).toBe('hello i would');
    expect(partials).toContain('hello i would like to book a table');

    const stream = fake.streams.at(-1)!;
    expect(stream.authorization).toBe(KEY);
    expect(stream.query).toMatchObject({
      sample_rate: '16000',
      encoding: 'pcm_s16le',
      format_turns: 'true',
      speech_model: 'universal-streaming-english',
      end_of_turn_confidence_threshold: '0.6',
      min_turn_silence: '2000',
    });
    expect(stream.keyterms).toEqual(['Acme Dental', 'Dr. Rao']);
    expect(stream.controls).toEqual([{ type: 'ForceEndpoint' }]);
    // Every sample went out before ForceEndpoint, in whole 50 ms chunks of 16 kHz audio.
    expect(stream.audioAtControl[0]).toBe(stream.audioBytes);
    expect(stream.audioBytes % 1600).toBe(0);

    await session.close();
    await until(() => stream.closed);
    expect(stream.terminated).toBe(true);
    expect(stream.controls.at(-1)).toEqual({ type: 'Terminate' });
  });

  it('takes the model of the agent over the deployment, and the deployment over the default', async () => {
    const session = await new AssemblyAiSttProvider({
      baseUrl: fake.baseUrl,
      apiKey: KEY,
      timeoutMs: 2000,
      model: 'universal-streaming-multilingual',
    }).open({ languages: ['en'] });
    expect(fake.streams.at(-1)!.speechModel).toBe('universal-streaming-multilingual');
    await session.close();
    const plain = await provider().open({ languages: ['en'] });
    expect(fake.streams.at(-1)!.speechModel).toBe('universal-streaming-english');
    await plain.close();
  });

  it('answers each utterance of a call on its own, at once when the turn already ended', async () => {
    const session = await provider().open({ languages: ['en'] });
    await say(session, 'My name is Asha.');
    // The fake ends the turn itself after 400 ms of quiet (its default min_turn_silence).
    session.push(new Int16Array(8000 * 0.6));
    const stream = fake.streams.at(-1)!;
    await until(() => stream.sent.some((m) => m.end_of_turn === true && m.turn_is_formatted === true));
    const started = Date.now();
    await expect(session.finish()).resolves.toBe('My name is Asha.');
    expect(Date.now() - started).toBeLessThan(200);

    await say(session, 'Tomorrow at noon.');
    await expect(session.finish()).resolves.toBe('Tomorrow at noon.');
    // Nothing said since: nothing to wait for.
    await expect(session.finish()).resolves.toBe('');
    await session.close();
  });

  it('resolves an utterance with no words after a short grace', async () => {
    const session = await provider().open({ languages: ['en'], providerOptions: LONG_TURNS });
    session.push(new Int16Array(1600));
    const started = Date.now();
    await expect(session.finish()).resolves.toBe('');
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    await session.close();
  });

  it('fails as ProviderError when the key is refused (the socket closes before Begin)', async () => {
    const started = Date.now();
    const refused = await provider('wrong-key')
      .open({ languages: ['en'] })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ProviderError);
    expect(refused).toMatchObject({ provider: 'stt', name: 'assemblyai' });
    expect((refused as Error).message).toContain('1008');
    expect((refused as Error).message).not.toContain('wrong-key');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('fails as ProviderError when a turn errors, hangs, or the stream never begins', async () => {
    let session = await provider().open({ languages: ['en'], providerOptions: LONG_TURNS });
    fake.fail('error');
    await say(session, 'One two three.');
    let error = await session.finish().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as Error).message).toContain('3005');
    await session.close();

    fake.heal();
    session = await provider('aai-test-key', 300).open({ languages: ['en'], providerOptions: LONG_TURNS });
    const partials: string[] = [];
    session.onPartial = (text) => partials.push(text);
    fake.fail('hang');
    await say(session, 'Four five six.');
    await until(() => partials.length > 0);
    const started = Date.now();
    error = await session.finish().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as Error).message).toContain('timed out');
    expect(Date.now() - started).toBeLessThan(600);
    await session.close();

    fake.fail('hang');
    const opening = Date.now();
    error = await provider('aai-test-key', 300)
      .open({ languages: ['en'] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(Date.now() - opening).toBeLessThan(600);
  });

  it('fails as ProviderError when the stream drops mid-utterance', async () => {
    const session = await provider().open({ languages: ['en'], providerOptions: LONG_TURNS });
    const partials: string[] = [];
    session.onPartial = (text) => partials.push(text);
    fake.fail('close');
    await say(session, 'Seven eight.');
    await until(() => partials.length > 0);
    await expect(session.finish()).rejects.toBeInstanceOf(ProviderError);
    await session.close();
  });
});

describe('assemblyAiPlugin', () => {
  it('checks a key with one authenticated GET of the REST API', async () => {
    const check = (apiKey: string) =>
      assemblyAiPlugin.checkKey({ apiKey, baseUrl: fake.baseUrl, timeoutMs: 2000 });
    await expect(check(KEY)).resolves.toEqual({ ok: true });
    await expect(check('nope')).resolves.toMatchObject({
      ok: false,
      reason: 'rejected',
      status: 401,
      message: 'Authentication error, API token missing/invalid',
    });
    expect(fake.requests.at(-1)).toMatchObject({
      method: 'GET',
      path: '/v2/transcript',
      authorization: 'nope',
    });
    expect(assemblyAiPlugin.stt?.keyterms).toBe(true);
  });

  it("sends the key check under a base's path (a path-based proxy)", async () => {
    await assemblyAiPlugin.checkKey({ apiKey: KEY, baseUrl: `${fake.baseUrl}/aai`, timeoutMs: 2000 });
    expect(fake.requests.at(-1)).toMatchObject({ method: 'GET', path: '/aai/v2/transcript' });
  });

  it("is the registry's assemblyai, speech-to-text only", () => {
    expect(speechPlugin('assemblyai')).toBe(assemblyAiPlugin);
    expect(speechPlugin('assemblyai')?.tts).toBeUndefined();
    const config = { baseUrl: fake.baseUrl, apiKey: KEY, timeoutMs: 1000 };
    expect(sttCapabilities('assemblyai')?.create(config)).toBeInstanceOf(AssemblyAiSttProvider);
  });
});
