import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { countZeroCrossings, decodePcm16Wav, pcm16ToBuffer, rms, sineWave } from '@vap/media';
import { OpenAiSttProvider } from './openai-stt.provider';
import { OpenAiTtsProvider } from './openai-tts.provider';
import { ProviderError } from '../provider-error';
import { OpenAiSpeechFake } from '../testing';
import { ttsPluginContract } from '../testing/tts-plugin-contract';
import { sttPluginContract } from '../testing/stt-plugin-contract';
import { openAiPlugin } from '.';
import type { TtsVoice } from '../tts-provider';

type Handler = (req: IncomingMessage, body: Buffer, res: ServerResponse) => void | Promise<void>;

/**
 * A local OpenAI-compatible server, a new one for each test (which installs the handler for its requests): a
 * request a test gave up on (timeout, abort) can still arrive on a loaded machine, and must not reach the next
 * test's handler.
 */
let server: Server;
let baseUrl: string;
let handler: Handler;

beforeEach(async () => {
  server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => void handler(req, Buffer.concat(parts), res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterEach(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const config = (timeoutMs = 2000, model?: string) => ({ baseUrl, apiKey: 'sk-test', model, timeoutMs });

async function multipart(req: IncomingMessage, body: Buffer): Promise<FormData> {
  return new Response(body, {
    headers: { 'content-type': req.headers['content-type'] as string },
  }).formData();
}

function utterance(ms: number): Int16Array {
  return sineWave(440, (8000 * ms) / 1000, 8000, -12);
}

describe('the base URL convention (the OpenAI SDK one, as LLM_BASE_URL)', () => {
  it('takes the base ending in /v1 that the chat model takes, and its bare origin alike', async () => {
    const paths: string[] = [];
    handler = (req, _body, res) => {
      paths.push(req.url ?? '');
      if (req.url === '/v1/audio/transcriptions')
        return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"text":"ok"}');
      if (req.url === '/v1/audio/speech') return void res.writeHead(200).end(speechBytes());
      res.writeHead(404).end('{"error":{"message":"Invalid URL"}}');
    };
    const origin = baseUrl.replace(/\/$/, '');
    for (const base of [`${origin}/v1`, `${origin}/v1/`, origin]) {
      const stt = await new OpenAiSttProvider({ ...config(), baseUrl: base }).open({ languages: ['en'] });
      stt.push(utterance(200));
      await expect(stt.finish()).resolves.toBe('ok');
      const tts = new OpenAiTtsProvider({ ...config(), baseUrl: base });
      expect((await collect(tts.synthesize({ text: 'Hi', voice: VOICE }))).length).toBe(8000);
    }
    expect(new Set(paths)).toEqual(new Set(['/v1/audio/transcriptions', '/v1/audio/speech']));
  });
});

sttPluginContract({
  plugin: openAiPlugin,
  startFake: ({ apiKey, slow }) => OpenAiSpeechFake.start({ apiKey, transcriptionDelayMs: slow ? 1000 : 0 }),
});

describe('OpenAiSttProvider', () => {
  it("posts the utterance as an 8 kHz WAV (the carrier's samples) with model, language and prompt, and reads the text", async () => {
    let seen: { url?: string; auth?: string; form?: FormData } = {};
    handler = async (req, body, res) => {
      seen = { url: req.url, auth: req.headers.authorization, form: await multipart(req, body) };
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ text: ' Haan ji, bilkul. ' }));
    };
    const session = await new OpenAiSttProvider(config(2000, 'whisper-large-v3')).open({
      languages: ['hinglish', 'en'],
      prompt: 'Acme Dental',
    });
    const pcm = utterance(1000);
    // Through one buffer reused frame after frame, as the caller's input hands them over.
    const frame = new Int16Array(160);
    for (let at = 0; at < pcm.length; at += 160) {
      frame.set(pcm.subarray(at, at + 160));
      session.push(frame);
    }
    await expect(session.finish()).resolves.toBe('Haan ji, bilkul.');

    expect(seen.url).toBe('/v1/audio/transcriptions');
    expect(seen.auth).toBe('Bearer sk-test');
    const form = seen.form!;
    expect(form.get('model')).toBe('whisper-large-v3');
    expect(form.get('language')).toBe('hi');
    expect(form.get('prompt')).toBe('Acme Dental');
    const file = form.get('file') as File;
    expect(file.type).toBe('audio/wav');
    const wav = decodePcm16Wav(new Uint8Array(await file.arrayBuffer()));
    // The carrier's own 8 kHz samples, as they came: the endpoint resamples to its model's rate itself.
    expect(wav.sampleRate).toBe(8000);
    expect(wav.samples).toEqual(pcm);

    // The next utterance starts clean; an empty one sends nothing.
    await expect(session.finish()).resolves.toBe('');
    await session.close();
  });
});

const VOICE: TtsVoice = {
  providerVoiceId: 'alloy',
  model: 'tts-1',
  speed: 1.25,
  volume: 1,
  language: 'en-IN',
};

/** One second of a 600 Hz tone at 24 kHz, as the little-endian bytes the speech endpoint streams. */
function speechBytes(): Buffer {
  return Buffer.from(pcm16ToBuffer(sineWave(600, 24000, 24000, -12)));
}

async function collect(chunks: AsyncIterable<Int16Array>): Promise<Int16Array> {
  const parts: number[] = [];
  for await (const chunk of chunks) parts.push(...chunk);
  return Int16Array.from(parts);
}

ttsPluginContract({
  plugin: openAiPlugin,
  voice: { providerVoiceId: 'alloy', model: 'gpt-4o-mini-tts', speed: 1, volume: 1, language: 'en' },
  startFake: ({ apiKey, slow }) =>
    OpenAiSpeechFake.start({ apiKey, pacing: slow ? { chunks: 12, delayMs: 100 } : undefined }),
});

describe('OpenAiTtsProvider', () => {
  it('sends the voice in the JSON request and streams 8 kHz PCM across odd chunk boundaries', async () => {
    let request: Record<string, unknown> = {};
    let auth: string | undefined;
    handler = async (req, body, res) => {
      request = JSON.parse(body.toString()) as Record<string, unknown>;
      auth = req.headers.authorization;
      expect(req.url).toBe('/v1/audio/speech');
      res.writeHead(200, { 'content-type': 'audio/pcm' });
      const bytes = speechBytes();
      // Odd-sized pieces: samples split across chunks.
      for (let at = 0; at < bytes.length; at += 1001) {
        res.write(bytes.subarray(at, at + 1001));
        await new Promise((resolve) => setImmediate(resolve));
      }
      res.end();
    };
    const tts = new OpenAiTtsProvider(config());
    const pcm = await collect(tts.synthesize({ text: 'Hello there.', voice: VOICE }));
    expect(request).toEqual({
      model: 'tts-1',
      input: 'Hello there.',
      voice: 'alloy',
      response_format: 'pcm',
      speed: 1.25,
    });
    expect(auth).toBe('Bearer sk-test');
    expect(pcm.length).toBe(8000);
    expect(Math.abs(countZeroCrossings(pcm) - 1200)).toBeLessThan(10);

    // TTS_MODEL overrides the catalog model; volume scales the samples.
    const quiet = await collect(
      new OpenAiTtsProvider(config(2000, 'gpt-4o-mini-tts')).synthesize({
        text: 'Hello there.',
        voice: { ...VOICE, volume: 0.5 },
      }),
    );
    expect(request.model).toBe('gpt-4o-mini-tts');
    expect(rms(quiet) / rms(pcm)).toBeCloseTo(0.5, 2);
  });

  it('fails when the stream stalls mid-sentence, but not while the consumer is slow', async () => {
    handler = (_req, _body, res) => {
      res.writeHead(200);
      res.write(speechBytes().subarray(0, 4800));
      setTimeout(() => res.end(speechBytes().subarray(4800, 9600)), 400);
    };
    const stalled = await collect(
      new OpenAiTtsProvider(config(150)).synthesize({ text: 'Hi', voice: VOICE }),
    ).catch((e: unknown) => e);
    expect(stalled).toBeInstanceOf(ProviderError);

    handler = (_req, _body, res) => void res.writeHead(200).end(speechBytes());
    let samples = 0;
    for await (const chunk of new OpenAiTtsProvider(config(100)).synthesize({ text: 'Hi', voice: VOICE })) {
      samples += chunk.length;
      await new Promise((resolve) => setTimeout(resolve, 150)); // slower than the deadline, per chunk
    }
    expect(samples).toBe(8000);
  });
});
