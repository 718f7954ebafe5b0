import { mulawDecode, mulawEncode } from '../audio/mulaw';
import { applyGain, levelDbfs, rms } from '../audio/pcm';
import { resamplePcm16 } from '../audio/resample';
import { FliteEngine } from './flite-engine';
import { lowPassSpeech, lowPassSpeechRange, mixUnder } from './speech-band';
import { closeOfflineSpeech, OFFLINE_SPEECH_SAMPLE_RATE, synthesizeOfflineSpeech } from './offline-speech';
import { OfflineTranscriber } from './offline-transcriber';
import { encodeTextSignal, textSignalDurationMs } from './text-modem';

const SENTENCES = [
  'Hello, this is Maya from Acme Dental.',
  'Your appointment is confirmed for Tuesday at 3:45 PM; the total is $120.50!',
  'Namaste ji, aapka order kal subah dus baje deliver hoga, theek hai?',
  'Is +91 98765 43210 the best number to reach you?',
  'नमस्ते, क्या मैं आपकी मदद कर सकती हूँ?',
];

function transcribe(pcm: Int16Array, frameSamples = pcm.length): string {
  const stt = new OfflineTranscriber();
  for (let at = 0; at < pcm.length; at += frameSamples) stt.push(pcm.subarray(at, at + frameSamples));
  return stt.finish();
}

/** 20 ms level envelope of the speech band only (the text signal sits above it). */
function speechEnvelope(pcm: Int16Array): number[] {
  const band = lowPassSpeech(pcm, OFFLINE_SPEECH_SAMPLE_RATE, 2000);
  const out: number[] = [];
  for (let at = 0; at + 160 <= band.length; at += 160) out.push(levelDbfs(band.subarray(at, at + 160)));
  return out;
}

/** Milliseconds from the first to the last 20 ms frame of audible speech. */
function speechSpanMs(pcm: Int16Array): number {
  const voiced = speechEnvelope(pcm)
    .map((db, i) => (db > -45 ? i : -1))
    .filter((i) => i >= 0);
  return voiced.length ? (voiced[voiced.length - 1] - voiced[0] + 1) * 20 : 0;
}

afterAll(() => closeOfflineSpeech());

describe('synthesizeOfflineSpeech -> OfflineTranscriber', () => {
  it.each(SENTENCES)('round-trips %j exactly, also through mu-law in 20 ms frames', async (text) => {
    const pcm = await synthesizeOfflineSpeech(text);
    expect(transcribe(pcm)).toBe(text);
    const mulaw = mulawEncode(pcm);
    const frames: Int16Array[] = [];
    for (let at = 0; at < mulaw.length; at += 160) frames.push(mulawDecode(mulaw.subarray(at, at + 160)));
    const stt = new OfflineTranscriber();
    for (const frame of frames) stt.push(frame);
    expect(stt.finish()).toBe(text);
  });

  it('still decodes when the listener starts late by the VAD detection time (60 ms), not when 200 ms are lost', async () => {
    const text = 'Sure, go ahead.';
    const pcm = await synthesizeOfflineSpeech(text);
    expect(transcribe(pcm.subarray(480), 160)).toBe(text);
    expect(transcribe(pcm.subarray(1600), 160)).toBe('');
  });

  it('round-trips with the female voice, fast and slow, quiet and loud', async () => {
    const text = 'Thanks for calling, have a great day.';
    for (const options of [
      { voice: 'slt' as const },
      { speed: 1.5, volume: 0.3 },
      { voice: 'slt' as const, speed: 0.7, volume: 1.8 },
    ]) {
      expect(transcribe(mulawDecode(mulawEncode(await synthesizeOfflineSpeech(text, options))), 160)).toBe(
        text,
      );
    }
  });

  it('is deterministic and returns copies the caller may change', async () => {
    const text = 'Please hold while I check that for you.';
    const a = await synthesizeOfflineSpeech(text, { voice: 'slt' });
    await closeOfflineSpeech(); // drops the cache and the workers: the next one is synthesized afresh
    const b = await synthesizeOfflineSpeech(text, { voice: 'slt' });
    expect(Buffer.from(b.buffer).equals(Buffer.from(a.buffer))).toBe(true);
    b.fill(0);
    expect(await synthesizeOfflineSpeech(text, { voice: 'slt' })).toEqual(a);
  });

  it('is speech: energy mostly under 2.4 kHz, moving like syllables, longer for more words', async () => {
    const short = await synthesizeOfflineSpeech('Good morning, Maya.');
    const long = await synthesizeOfflineSpeech(
      'Good morning, Maya, I am calling to confirm your dental cleaning next Tuesday afternoon at four.',
    );
    for (const pcm of [short, long]) {
      const speechBand = lowPassSpeech(pcm, OFFLINE_SPEECH_SAMPLE_RATE);
      expect(rms(speechBand) ** 2 / rms(pcm) ** 2).toBeGreaterThan(0.7);
      // Syllables and pauses: the speech band's 20 ms levels spread over tens of dB, unlike a tone or noise.
      const env = speechEnvelope(pcm).filter((db) => db > -60);
      const sorted = [...env].sort((x, y) => x - y);
      expect(
        sorted[Math.floor(sorted.length * 0.9)] - sorted[Math.floor(sorted.length * 0.1)],
      ).toBeGreaterThan(15);
    }
    // 3 words vs 17 words.
    const ratio = speechSpanMs(long) / speechSpanMs(short);
    expect(ratio).toBeGreaterThan(3);
    expect(ratio).toBeLessThan(9);
  });

  it('pads short speech with silence so the whole text signal fits', async () => {
    const text = 'OK';
    const pcm = await synthesizeOfflineSpeech(text);
    expect(pcm.length).toBeGreaterThanOrEqual(
      (textSignalDurationMs(text) * OFFLINE_SPEECH_SAMPLE_RATE) / 1000,
    );
    expect(transcribe(pcm, 160)).toBe(text);
    // Nothing to pronounce: the signal alone, still read back exactly.
    expect(transcribe(await synthesizeOfflineSpeech('...'))).toBe('...');
  });

  it('transcribes audio without the signal to nothing, and reads two sentences in one utterance', async () => {
    const speech = await synthesizeOfflineSpeech('One moment please.');
    expect(transcribe(lowPassSpeech(speech, OFFLINE_SPEECH_SAMPLE_RATE, 2000))).toBe('');
    const second = await synthesizeOfflineSpeech('Thank you.');
    const both = new Int16Array(speech.length + second.length);
    both.set(speech);
    both.set(second, speech.length);
    expect(transcribe(both, 160)).toBe('One moment please. Thank you.');
  });

  it('filters in slices (between event-loop turns) with the same result as in one go', async () => {
    const noise = Int16Array.from({ length: 5000 }, (_, i) => ((i * 7919) % 20000) - 10000);
    const sliced = new Int16Array(noise.length);
    for (let at = 0; at < noise.length; at += 777) lowPassSpeechRange(noise, sliced, at, at + 777, 8000);
    expect(sliced).toEqual(lowPassSpeech(noise, 8000));

    // The whole offline voice equals the one-shot chain: flite -> 8 kHz -> volume -> mixUnder(text signal).
    const text = 'Your refund was processed this morning.';
    const engine = new FliteEngine(1);
    try {
      const clip = await engine.synthesize({ text, voice: 'slt', rate: 1.2 });
      const speech = applyGain(resamplePcm16(clip.samples, clip.sampleRate, 8000), 0.8);
      const expected = mixUnder(speech, encodeTextSignal(text, { sampleRate: 8000 }), 8000);
      expect(await synthesizeOfflineSpeech(text, { voice: 'slt', speed: 1.2, volume: 0.8 })).toEqual(
        expected,
      );
    } finally {
      await engine.close();
    }
  });

  it('synthesizes a 12-word sentence quickly', async () => {
    const text = 'I can book you in for Thursday morning at nine if that works.';
    for (const voice of ['kal', 'slt'] as const) {
      await synthesizeOfflineSpeech('Warm up.', { voice });
      const started = performance.now();
      const pcm = await synthesizeOfflineSpeech(text, { voice });
      const ms = performance.now() - started;
      process.stdout.write(
        `offline TTS ${voice}: 12 words in ${ms.toFixed(1)} ms for ${(pcm.length / 8).toFixed(0)} ms of audio, ` +
          `speech ${levelDbfs(lowPassSpeech(pcm, OFFLINE_SPEECH_SAMPLE_RATE, 2000)).toFixed(1)} dBFS\n`,
      );
      expect(ms).toBeLessThan(1500);
    }
  });
});
