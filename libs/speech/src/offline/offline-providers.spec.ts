import { closeOfflineSpeech, mulawDecode, mulawEncode } from '@vap/media';
import { OfflineSttProvider } from './offline-stt.provider';
import { OfflineTtsProvider, fliteVoiceFor } from './offline-tts.provider';
import type { TtsVoice } from '../tts-provider';

const VOICE: TtsVoice = {
  providerVoiceId: 'anushka',
  model: 'bulbul:v2',
  speed: 1,
  volume: 1,
  language: 'hi-IN',
};

async function collect(chunks: AsyncIterable<Int16Array>): Promise<Int16Array[]> {
  const out: Int16Array[] = [];
  for await (const chunk of chunks) out.push(chunk);
  return out;
}

afterAll(() => closeOfflineSpeech());

describe('fliteVoiceFor', () => {
  it.each([
    ['anushka', 'slt'],
    ['abhilash', 'kal'],
    ['en-IN-NeerjaNeural', 'slt'],
    ['en-IN-PrabhatNeural', 'kal'],
    ['pa-IN-OjasNeural', 'kal'],
    ['en-IN-Chirp3-HD-Aoede', 'slt'],
    ['en-IN-Chirp3-HD-Charon', 'kal'],
    ['nova', 'slt'],
    ['onyx', 'kal'],
    ['my-female-voice', 'slt'],
  ])('maps %s to %s', (providerVoiceId, flite) => {
    expect(fliteVoiceFor({ providerVoiceId })).toBe(flite);
  });

  it('gives opaque ids a stable voice, and uses both voices across them', () => {
    const ids = [
      'u8jzPde0IgxLd6GncfBA',
      'epfJBd0Kh8oOOL8dKLzd',
      'cb5c7427-3f98-4277-8cbd-87ad5c90a958',
      'x1',
      'y2',
    ];
    const voices = ids.map((providerVoiceId) => fliteVoiceFor({ providerVoiceId }));
    expect(ids.map((providerVoiceId) => fliteVoiceFor({ providerVoiceId }))).toEqual(voices);
    expect(new Set(voices)).toEqual(new Set(['kal', 'slt']));
  });
});

describe('offline TTS -> offline STT providers', () => {
  it('speaks each sentence in chunks that the STT reads back exactly, through mu-law 20 ms frames', async () => {
    const tts = new OfflineTtsProvider();
    const session = await new OfflineSttProvider().open({ languages: ['hinglish'] });
    for (const text of ['Namaste! Main Anushka bol rahi hoon.', 'Your total is 1,250 rupees.']) {
      const chunks = await collect(tts.synthesize({ text, voice: VOICE }));
      expect(chunks.length).toBeGreaterThan(1);
      const mulaw = mulawEncode(Int16Array.from(chunks.flatMap((c) => Array.from(c))));
      for (let at = 0; at < mulaw.length; at += 160) session.push(mulawDecode(mulaw.subarray(at, at + 160)));
      await expect(session.finish()).resolves.toBe(text);
    }
    await expect(session.finish()).resolves.toBe('');
    await session.close();
  });

  it('applies the voice speed and volume', async () => {
    const tts = new OfflineTtsProvider();
    const text = 'We will call you back tomorrow morning about your delivery.';
    const length = async (voice: TtsVoice) =>
      (await collect(tts.synthesize({ text, voice }))).reduce((n, c) => n + c.length, 0);
    const normal = await length(VOICE);
    expect(await length({ ...VOICE, speed: 1.5 })).toBeLessThan(normal * 0.8);
    expect(await length({ ...VOICE, speed: 0.7 })).toBeGreaterThan(normal * 1.2);
    const peak = async (voice: TtsVoice) =>
      Math.max(...(await collect(tts.synthesize({ text, voice }))).flatMap((c) => Array.from(c, Math.abs)));
    expect(await peak({ ...VOICE, volume: 0.4 })).toBeLessThan((await peak(VOICE)) * 0.6);
  });

  it('stops streaming when the signal aborts (barge-in)', async () => {
    const controller = new AbortController();
    const chunks: Int16Array[] = [];
    for await (const chunk of new OfflineTtsProvider().synthesize(
      { text: 'This is a long sentence that the caller will interrupt halfway through.', voice: VOICE },
      controller.signal,
    )) {
      chunks.push(chunk);
      controller.abort();
    }
    expect(chunks).toHaveLength(1);
  });
});
