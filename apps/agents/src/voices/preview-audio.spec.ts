import { decodePcm16Wav } from '@vap/media';
import { collectPreviewPcm, previewTextHash, previewWav } from './preview-audio';
import { offlineStandIn, platformSpeechKey } from './platform-speech-keys';

async function* chunks(...sizes: number[]): AsyncIterable<Int16Array> {
  let value = 0;
  for (const size of sizes) yield Int16Array.from({ length: size }, () => value++ % 1000);
}

describe('voice preview audio', () => {
  it('writes a 16-bit PCM mono RIFF/WAVE at 8 kHz whose data are the samples', () => {
    const pcm = Int16Array.from([0, 1, -1, 32767, -32768]);
    const wav = previewWav(pcm);
    expect(wav.subarray(0, 4).toString('ascii')).toBe('RIFF');
    expect(wav.readUInt32LE(4)).toBe(36 + pcm.length * 2);
    expect(wav.subarray(8, 16).toString('ascii')).toBe('WAVEfmt ');
    expect(wav.readUInt16LE(20)).toBe(1); // PCM
    expect(wav.readUInt16LE(22)).toBe(1); // mono
    expect(wav.readUInt32LE(24)).toBe(8000);
    expect(wav.readUInt32LE(28)).toBe(16000); // byte rate
    expect(wav.readUInt16LE(32)).toBe(2); // block align
    expect(wav.readUInt16LE(34)).toBe(16); // bits per sample
    expect(wav.subarray(36, 40).toString('ascii')).toBe('data');
    expect(wav.readUInt32LE(40)).toBe(pcm.length * 2);
    expect(wav.length).toBe(44 + pcm.length * 2);
    expect(decodePcm16Wav(wav)).toEqual({ samples: pcm, sampleRate: 8000 });
  });

  it('gathers a stream whole while it is short', async () => {
    const stop = jest.fn();
    const pcm = await collectPreviewPcm(chunks(3, 4, 5), stop, 8000, 30);
    expect(Array.from(pcm)).toEqual(Array.from({ length: 12 }, (_, i) => i));
    expect(stop).not.toHaveBeenCalled();
  });

  it('cuts a stream at the length bound and stops the synthesis', async () => {
    const stop = jest.fn();
    // 1 s at 10 Hz: 10 samples, then the stream is abandoned.
    const pcm = await collectPreviewPcm(chunks(4, 4, 4, 4), stop, 10, 1);
    expect(pcm.length).toBe(10);
    expect(Array.from(pcm)).toEqual(Array.from({ length: 10 }, (_, i) => i));
    expect(stop).toHaveBeenCalledTimes(1);
  });

  it('hashes the preview text for the cache key', () => {
    expect(previewTextHash('Hello')).toBe(previewTextHash('Hello'));
    expect(previewTextHash('Hello')).not.toBe(previewTextHash('Hello.'));
    expect(previewTextHash('Hello')).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('platform speech keys', () => {
  it('gives the platform key of a provider to the tiers its setting lists, and those above them', () => {
    const settings = {
      SPEECH_ELEVENLABS_API_KEY: 'el-key',
      SPEECH_ELEVENLABS_TIERS: 'premium, enterprise',
      SPEECH_ELEVENLABS_BASE_URL: 'http://127.0.0.1:9999',
    };
    expect(platformSpeechKey('elevenlabs', 'standard', settings)).toBeUndefined();
    expect(platformSpeechKey('elevenlabs', 'premium', settings)).toEqual({
      provider: 'elevenlabs',
      apiKey: 'el-key',
      baseUrl: 'http://127.0.0.1:9999',
    });
    expect(
      platformSpeechKey('elevenlabs', 'enterprise', { ...settings, SPEECH_ELEVENLABS_TIERS: 'standard' }),
    ).toMatchObject({
      apiKey: 'el-key',
    });
  });

  it('has no key for a provider without one, for offline and for unknown names', () => {
    expect(platformSpeechKey('openai', 'enterprise', {})).toBeUndefined();
    expect(platformSpeechKey('offline', 'enterprise', { SPEECH_OFFLINE_API_KEY: 'x' })).toBeUndefined();
    expect(platformSpeechKey('google', 'enterprise', { SPEECH_GOOGLE_API_KEY: 'x' })).toBeUndefined();
  });

  it("defaults to the provider's public API and puts Azure's region in its base URL", () => {
    expect(platformSpeechKey('openai', 'standard', { SPEECH_OPENAI_API_KEY: 'k' })?.baseUrl).toMatch(
      /^https:\/\//,
    );
    expect(
      platformSpeechKey('azure', 'standard', {
        SPEECH_AZURE_API_KEY: 'k',
        SPEECH_AZURE_REGION: 'centralindia',
        SPEECH_AZURE_BASE_URL: 'https://{region}.tts.speech.microsoft.com',
      }),
    ).toEqual({
      provider: 'azure',
      apiKey: 'k',
      baseUrl: 'https://centralindia.tts.speech.microsoft.com',
      region: 'centralindia',
    });
  });

  it('stands in with the offline engine by default outside production, as the setting says otherwise', () => {
    expect(offlineStandIn({})).toBe(true);
    expect(offlineStandIn({ NODE_ENV: 'production' })).toBe(false);
    expect(offlineStandIn({ NODE_ENV: 'production', SPEECH_OFFLINE_STAND_IN: 'true' })).toBe(true);
    expect(offlineStandIn({ SPEECH_OFFLINE_STAND_IN: 'false' })).toBe(false);
  });
});
