import { closeOfflineSpeech, pcm16FromBuffer } from '@vap/media';
import { CartesiaFake } from './cartesia-fake';
import { FakeRecogniser } from './fake-provider-server';
import { talkTo } from './streamed-speech';

const KEY = 'sk_car_fake';
let fake: CartesiaFake;

beforeEach(async () => (fake = await CartesiaFake.start({ apiKey: KEY, chunks: 3, chunkIntervalMs: 0 })));
afterEach(() => fake.close());
afterAll(() => closeOfflineSpeech());

const socketUrl = (query = '') => `${fake.baseUrl.replace('http', 'ws')}/tts/websocket${query}`;
const request = (contextId: string, transcript: string, extra: Record<string, unknown> = {}) => ({
  context_id: contextId,
  model_id: 'sonic-3',
  transcript,
  voice: { mode: 'id', id: 'voice-1' },
  output_format: { container: 'raw', encoding: 'pcm_s16le', sample_rate: 8000 },
  ...extra,
});

describe('CartesiaFake (the TTS WebSocket protocol)', () => {
  it('concatenates a context’s transcripts, answers a flush with flush_done and the end with done', async () => {
    const seen = await talkTo(
      socketUrl('?api_key=sk_car_fake&cartesia_version=2025-11-04'),
      {},
      [
        request('c1', 'Hello ', { continue: true }),
        request('c1', 'there.', { continue: true, flush: true }),
        request('c1', ' Bye now.', { continue: false }),
      ],
      // The context's end is the fake's last answer; a generous deadline for a loaded machine.
      15_000,
      (frames) => frames.some((f) => f.type === 'done'),
    );
    expect(fake.connections[0]).toMatchObject({ apiKey: KEY, auth: 'query', version: '2025-11-04' });
    expect(fake.contexts[0]).toMatchObject({
      spoken: ['Hello there.', 'Bye now.'],
      done: true,
      chunksSent: 6,
    });
    expect(seen.frames.map((f) => f.type)).toEqual([
      ...['chunk', 'chunk', 'chunk', 'flush_done'],
      ...['chunk', 'chunk', 'chunk', 'done'],
    ]);
    expect(seen.frames[3]).toMatchObject({ context_id: 'c1', flush_id: 1 });
    expect(seen.frames[7]).toEqual({ type: 'done', context_id: 'c1', done: true, status_code: 206 });
    const recogniser = new FakeRecogniser(8000);
    const words = seen.frames
      .filter((f) => f.type === 'chunk')
      .flatMap((f) => recogniser.push(pcm16FromBuffer(Buffer.from(f.data as string, 'base64'))));
    expect(words).toEqual(['Hello there.', 'Bye now.']);
  });

  it('answers a malformed request with an error message, and refuses a wrong key or no version', async () => {
    const headers = { 'x-api-key': KEY, 'cartesia-version': '2025-11-04' };
    const seen = await talkTo(
      socketUrl(),
      headers,
      [
        request('c1', 'Hi.', {
          output_format: { container: 'raw', encoding: 'pcm_alaw', sample_rate: 8000 },
        }),
        request('c2', 'Hi.', { voice: { mode: 'embedding' } }),
        { transcript: 'no context' },
      ],
      15_000,
      (frames) => frames.length === 3,
    );
    expect(fake.connections[0].auth).toBe('x-api-key');
    expect(seen.frames).toEqual([
      expect.objectContaining({ type: 'error', context_id: 'c1', status_code: 400, done: true }),
      expect.objectContaining({ type: 'error', context_id: 'c2', message: "voice must be {mode: 'id', id}" }),
      expect.objectContaining({ type: 'error', message: 'context_id is required' }),
    ]);
    await expect(talkTo(socketUrl(), { ...headers, 'x-api-key': 'wrong' }, [])).resolves.toMatchObject({
      refused: 401,
    });
    await expect(talkTo(socketUrl(), { authorization: `Bearer ${KEY}` }, [])).resolves.toMatchObject({
      refused: 400,
    });
  });
});
