import { closeOfflineSpeech, mulawDecode } from '@vap/media';
import { ElevenLabsFake } from './elevenlabs-fake';
import { FakeRecogniser } from './fake-provider-server';
import { talkTo } from './streamed-speech';

const KEY = 'xi-fake-key';
let fake: ElevenLabsFake;

beforeEach(async () => (fake = await ElevenLabsFake.start({ apiKey: KEY, chunks: 3, chunkIntervalMs: 0 })));
afterEach(() => fake.close());
afterAll(() => closeOfflineSpeech());

const streamUrl = (query: string) =>
  `${fake.baseUrl.replace('http', 'ws')}/v1/text-to-speech/voice-1/stream-input?${query}`;

describe('ElevenLabsFake (the stream-input protocol)', () => {
  it('takes the key in the first message, speaks each flush, and ends with isFinal and a normal close', async () => {
    const seen = await talkTo(streamUrl('model_id=eleven_flash_v2_5&output_format=ulaw_8000'), {}, [
      { text: ' ', 'xi-api-key': KEY },
      { text: 'Hello ' },
      { text: 'there. ', flush: true },
      { text: 'Bye now. ' },
      { text: '' },
    ]);
    expect(seen.close).toEqual({ code: 1000, reason: '' });
    expect(seen.frames.at(-1)).toEqual({
      audio: null,
      isFinal: true,
      normalizedAlignment: null,
      alignment: null,
    });
    const [stream] = fake.streams;
    expect(stream).toMatchObject({
      apiKey: KEY,
      voiceId: 'voice-1',
      outputFormat: 'ulaw_8000',
      texts: ['Hello ', 'there. ', 'Bye now. '],
      spoken: ['Hello there.', 'Bye now.'],
      chunksSent: 6,
    });
    // The key is not kept with the messages.
    expect(stream.messages[0]).toEqual({ text: ' ' });
    // mu-law audio, read back word for word.
    const recogniser = new FakeRecogniser(8000);
    const words = seen.frames
      .filter((f) => typeof f.audio === 'string')
      .flatMap((f) => recogniser.push(mulawDecode(Buffer.from(f.audio as string, 'base64'))));
    expect(words).toEqual(['Hello there.', 'Bye now.']);
  });

  it('closes with 1008 and the reason for what ElevenLabs refuses', async () => {
    const cases: [string, Record<string, string>, unknown[], string][] = [
      ['output_format=pcm_16000', {}, [{ text: ' ', 'xi-api-key': 'wrong' }], 'Invalid API key'],
      ['output_format=pcm_16000', { 'xi-api-key': KEY }, [{ text: 'Hi' }], 'The first message must be'],
      ['output_format=pcm_16000', { 'xi-api-key': KEY }, ['not json'], 'Invalid message received'],
      [
        'output_format=pcm_16000',
        { 'xi-api-key': KEY },
        [
          { text: ' ', voice_settings: { speed: 1 } },
          { text: 'Hi ', voice_settings: { speed: 1.2 } },
        ],
        'voice_settings field must be provided in the first message',
      ],
      [
        'output_format=mp3_44100_128',
        { 'xi-api-key': KEY },
        [],
        'the fake serves pcm_<rate> and ulaw_8000 only',
      ],
      ['output_format=wav_9', { 'xi-api-key': KEY }, [], 'Invalid output format'],
      [
        'model_id=eleven_multilingual_v2&language_code=hi&output_format=pcm_16000',
        { 'xi-api-key': KEY },
        [],
        'does not support language_code',
      ],
      [
        'output_format=pcm_16000&inactivity_timeout=0.2',
        { 'xi-api-key': KEY },
        [{ text: ' ' }],
        'Have not received',
      ],
    ];
    for (const [query, headers, messages, reason] of cases) {
      const seen = await talkTo(streamUrl(query), headers, messages);
      expect(seen.close?.code).toBe(1008);
      expect(seen.close?.reason).toContain(reason);
    }
    // A wrong header key is refused at the upgrade.
    await expect(
      talkTo(streamUrl('output_format=pcm_16000'), { 'xi-api-key': 'wrong' }, []),
    ).resolves.toMatchObject({
      frames: [],
      refused: 401,
    });
  });
});
