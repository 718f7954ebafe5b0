import { closeOfflineSpeech, rms } from '@vap/media';
import { ProviderError, ProviderTimeout } from '../provider-error';
import { ttsCapabilities } from '../registry';
import { DeepgramSpeakFake, FakeRecogniser } from '../testing';
import { ttsPluginContract } from '../testing/tts-plugin-contract';
import type { TtsVoice } from '../tts-provider';
import { deepgramPlugin } from '.';
import {
  DEEPGRAM_SPEAK_MAX_CHARS,
  DeepgramTtsProvider,
  deepgramSpeakModel,
  speakPieces,
} from './deepgram-tts.provider';

const KEY = 'dg-secret-key';
const VOICE: TtsVoice = {
  providerVoiceId: 'aura-2-thalia-en',
  model: 'aura-2',
  speed: 1,
  volume: 1,
  language: 'en-US',
};

let fake: DeepgramSpeakFake;

beforeEach(async () => {
  fake = await DeepgramSpeakFake.start({ apiKey: KEY });
});

afterEach(() => fake.close());
afterAll(() => closeOfflineSpeech());

const provider = (overrides: { apiKey?: string; timeoutMs?: number; baseUrl?: string } = {}) =>
  new DeepgramTtsProvider({ baseUrl: fake.baseUrl, apiKey: KEY, timeoutMs: 3000, ...overrides });

async function collect(chunks: AsyncIterable<Int16Array>): Promise<Int16Array[]> {
  const out: Int16Array[] = [];
  for await (const chunk of chunks) out.push(chunk);
  return out;
}

function concat(chunks: Int16Array[]): Int16Array {
  const out = new Int16Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

function heard(pcm: Int16Array): string[] {
  return new FakeRecogniser(8000).push(pcm);
}

ttsPluginContract({
  plugin: deepgramPlugin,
  voice: VOICE,
  startFake: ({ apiKey, slow }) =>
    DeepgramSpeakFake.start({ apiKey, pacing: slow ? { chunks: 12, delayMs: 100 } : undefined }),
});

describe('DeepgramTtsProvider against the Aura fake', () => {
  it('posts the documented request: /v1/speak, model, raw linear16 at 8 kHz, Token auth, JSON text', async () => {
    await collect(provider().synthesize({ text: 'Hello from Aura.', voice: VOICE }));
    expect(fake.requests).toHaveLength(1);
    const [seen] = fake.requests;
    expect(seen.authorization).toBe(`Token ${KEY}`);
    expect(seen.contentType).toBe('application/json');
    expect(seen.query).toEqual({
      model: 'aura-2-thalia-en',
      encoding: 'linear16',
      sample_rate: '8000',
      container: 'none',
    });
    expect(seen.text).toBe('Hello from Aura.');
    expect(seen.status).toBe(200);
  });

  it('streams: the first audio comes out before the fake sends its last chunk, in pieces of at most 100 ms', async () => {
    const text = 'Your appointment is confirmed for Tuesday at ten in the morning.';
    const chunks: Int16Array[] = [];
    let completeAtFirstAudio: boolean | undefined;
    for await (const chunk of provider().synthesize({ text, voice: VOICE })) {
      completeAtFirstAudio ??= fake.requests[0].complete;
      chunks.push(chunk);
    }
    expect(completeAtFirstAudio).toBe(false);
    expect(fake.requests[0].chunksSent).toBeGreaterThan(3);
    expect(Math.max(...chunks.map((c) => c.length))).toBeLessThanOrEqual(800);
    // No WAV header and no byte lost across odd chunk boundaries: the words read back exactly.
    expect(heard(concat(chunks))).toEqual([text]);
  });

  it('speaks dictionary words by their aliases (whole words, any case) and leaves IPA-only words as written', async () => {
    const chunks = await collect(
      provider().synthesize({
        text: 'Visit ACME at acme.com, ask Dr. Rao about tomato and acmeish things.',
        voice: VOICE,
        pronunciations: [
          { word: 'acme', alias: 'Ack Me' },
          { word: 'Dr.', alias: 'Doctor' },
          { word: 'tomato', ipa: 'təˈmɑːtoʊ' },
        ],
      }),
    );
    const expected = 'Visit Ack Me at Ack Me.com, ask Doctor Rao about tomato and acmeish things.';
    expect(fake.requests[0].text).toBe(expected);
    expect(heard(concat(chunks))).toEqual([expected]);
  });

  it('sends Aura-2 speed (clamped to 0.7-1.5) and applies volume to the samples', async () => {
    const loud = concat(await collect(provider().synthesize({ text: 'Volume check.', voice: VOICE })));
    const quiet = concat(
      await collect(provider().synthesize({ text: 'Volume check.', voice: { ...VOICE, volume: 0.5 } })),
    );
    expect(rms(quiet) / rms(loud)).toBeCloseTo(0.5, 1);
    expect(fake.requests[0].query.speed).toBeUndefined();

    await collect(provider().synthesize({ text: 'Faster.', voice: { ...VOICE, speed: 1.2 } }));
    await collect(provider().synthesize({ text: 'Much faster.', voice: { ...VOICE, speed: 3 } }));
    expect(fake.requests.slice(2).map((r) => r.speed)).toEqual([1.2, 1.5]);
  });

  it('names the model from a bare voice name with the catalog family and the voice language', async () => {
    await collect(
      provider().synthesize({
        text: 'Hi.',
        voice: { ...VOICE, providerVoiceId: 'Odysseus', model: 'aura-2' },
      }),
    );
    expect(fake.requests[0].model).toBe('aura-2-odysseus-en');
    expect(deepgramSpeakModel({ ...VOICE, providerVoiceId: 'asteria', model: 'aura' })).toBe(
      'aura-asteria-en',
    );
    expect(deepgramSpeakModel({ ...VOICE, providerVoiceId: 'celeste', model: '', language: 'es' })).toBe(
      'aura-2-celeste-es',
    );
  });

  it('sends nothing for empty text', async () => {
    await expect(collect(provider().synthesize({ text: '  ', voice: VOICE }))).resolves.toEqual([]);
    expect(fake.requests).toHaveLength(0);
  });

  it('fails as ProviderError on a dropped stream, and heals after the scripted failure', async () => {
    fake.fail('close', { times: 1 });
    const dropped = await collect(
      provider().synthesize({ text: 'A sentence that is cut.', voice: VOICE }),
    ).catch((e: unknown) => e);
    expect(dropped).toBeInstanceOf(ProviderError);

    expect(
      heard(concat(await collect(provider().synthesize({ text: 'Back again.', voice: VOICE })))),
    ).toEqual(['Back again.']);
  });

  it('fails when the stream stalls mid-sentence', async () => {
    fake = await replaceFake({ chunks: 4, delayMs: 600 });
    const stalled = await collect(
      provider({ timeoutMs: 250 }).synthesize({ text: 'A slow answer.', voice: VOICE }),
    ).catch((e: unknown) => e);
    expect(stalled).toBeInstanceOf(ProviderError);
    expect((stalled as ProviderError).cause).toBeInstanceOf(ProviderTimeout);
  });
});

describe('speakPieces (Aura takes at most 2,000 characters a request)', () => {
  it('keeps short text whole and cuts long text at sentence ends, then spaces, within the limit', () => {
    expect(speakPieces('  Hello there.  ')).toEqual(['Hello there.']);
    const sentence = 'This is one sentence of the long answer. ';
    const long = sentence.repeat(120);
    const pieces = speakPieces(long);
    expect(pieces.length).toBeGreaterThan(1);
    for (const piece of pieces) {
      expect(piece.length).toBeLessThanOrEqual(DEEPGRAM_SPEAK_MAX_CHARS);
      expect(piece.endsWith('.')).toBe(true);
    }
    expect(pieces.join(' ')).toBe(long.trim());
    expect(speakPieces('word '.repeat(10), 12)).toEqual([
      'word word',
      'word word',
      'word word',
      'word word',
      'word word',
    ]);
    expect(speakPieces('x'.repeat(25), 10)).toEqual(['x'.repeat(10), 'x'.repeat(10), 'x'.repeat(5)]);
  });
});

describe('deepgramPlugin', () => {
  it('offers Aura through the registry', () => {
    const tts = ttsCapabilities('deepgram');
    expect(tts).toMatchObject({
      streaming: true,
      pronunciations: 'alias',
      languages: ['en'],
      defaultModel: 'aura-2',
    });
    expect(tts!.create({ baseUrl: fake.baseUrl, apiKey: KEY, timeoutMs: 1000 })).toBeInstanceOf(
      DeepgramTtsProvider,
    );
  });

  it('checks a key on GET /v1/projects with Token auth, quoting Deepgram when refused', async () => {
    const check = (apiKey: string, baseUrl = fake.baseUrl) =>
      deepgramPlugin.checkKey({ apiKey, baseUrl, timeoutMs: 1000 });
    await expect(check(KEY)).resolves.toEqual({ ok: true });
    await expect(check('wrong')).resolves.toEqual({
      ok: false,
      reason: 'rejected',
      status: 401,
      message: 'Invalid credentials.',
    });
    expect(fake.projectRequests.map((r) => r.authorization)).toEqual([`Token ${KEY}`, 'Token wrong']);
  });
});

async function replaceFake(pacing: { chunks: number; delayMs: number }): Promise<DeepgramSpeakFake> {
  await fake.close();
  return DeepgramSpeakFake.start({ apiKey: KEY, pacing });
}
