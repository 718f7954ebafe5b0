import { createSpeechProviders, recognitionLanguage, type SpeechSettings } from './index';

const OFFLINE: SpeechSettings = {
  STT_PROVIDER: 'offline',
  TTS_PROVIDER: 'offline',
  PROVIDER_TIMEOUT_MS: 5000,
};

describe('createSpeechProviders', () => {
  it('builds the providers the settings name', () => {
    expect(createSpeechProviders(OFFLINE)).toMatchObject({
      stt: { name: 'offline' },
      tts: { name: 'offline' },
    });
    const network = createSpeechProviders({
      ...OFFLINE,
      STT_PROVIDER: 'deepgram',
      STT_BASE_URL: 'https://stt.example',
      STT_API_KEY: 'k',
      TTS_PROVIDER: 'openai',
      TTS_BASE_URL: 'https://tts.example',
      TTS_API_KEY: 'k',
    });
    expect(network).toMatchObject({ stt: { name: 'deepgram' }, tts: { name: 'openai' } });
    expect(
      createSpeechProviders({
        ...OFFLINE,
        STT_PROVIDER: 'openai',
        STT_BASE_URL: 'http://x',
        STT_API_KEY: 'k',
      }).stt.name,
    ).toBe('openai');
  });

  it('refuses a network provider without its base URL or key, naming what is missing', () => {
    expect(() => createSpeechProviders({ ...OFFLINE, STT_PROVIDER: 'openai', STT_API_KEY: 'k' })).toThrow(
      'STT_PROVIDER=openai needs STT_BASE_URL',
    );
    expect(() => createSpeechProviders({ ...OFFLINE, STT_PROVIDER: 'deepgram' })).toThrow(
      'STT_PROVIDER=deepgram needs STT_BASE_URL and STT_API_KEY',
    );
    expect(() =>
      createSpeechProviders({ ...OFFLINE, TTS_PROVIDER: 'openai', TTS_BASE_URL: 'http://x' }),
    ).toThrow('TTS_PROVIDER=openai needs TTS_API_KEY');
    expect(() => createSpeechProviders({ ...OFFLINE, STT_PROVIDER: 'whisper' as never })).toThrow(
      /STT_PROVIDER/,
    );
  });

  it('hints recognition with the first spoken language, Hinglish as Hindi', () => {
    expect(recognitionLanguage(['hinglish', 'en'])).toBe('hi');
    expect(recognitionLanguage(['ta'])).toBe('ta');
    expect(recognitionLanguage(['en-IN'])).toBe('en');
    expect(recognitionLanguage([])).toBeUndefined();
  });
});
