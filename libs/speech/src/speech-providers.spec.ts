import { createSpeechProviders, LocalSttProvider, recognitionLanguage, type SpeechSettings } from './index';

const OFFLINE: SpeechSettings = {
  STT_PROVIDER: 'offline',
  TTS_PROVIDER: 'offline',
  PROVIDER_TIMEOUT_MS: 5000,
};

const names = (providers: { name: string }[]) => providers.map((p) => p.name);

describe('createSpeechProviders', () => {
  it('builds the providers the settings name', () => {
    const offline = createSpeechProviders(OFFLINE);
    expect([names(offline.stt), names(offline.tts)]).toEqual([['offline'], ['offline']]);
    const network = createSpeechProviders({
      ...OFFLINE,
      STT_PROVIDER: 'deepgram',
      STT_BASE_URL: 'https://stt.example',
      STT_API_KEY: 'k',
      TTS_PROVIDER: 'openai',
      TTS_BASE_URL: 'https://tts.example',
      TTS_API_KEY: 'k',
    });
    expect([names(network.stt), names(network.tts)]).toEqual([['deepgram'], ['openai']]);
    const openai = createSpeechProviders({
      ...OFFLINE,
      STT_PROVIDER: 'openai',
      STT_BASE_URL: 'http://x',
      STT_API_KEY: 'k',
    });
    expect(names(openai.stt)).toEqual(['openai']);
  });

  it('builds a list in its fallback order, the second network provider on the STT_FALLBACK_* settings', () => {
    const providers = createSpeechProviders({
      ...OFFLINE,
      STT_PROVIDER: 'deepgram, openai,offline',
      STT_BASE_URL: 'https://api.deepgram.com/v1',
      STT_API_KEY: 'dg',
      STT_FALLBACK_BASE_URL: 'https://api.openai.com/v1',
      STT_FALLBACK_API_KEY: 'sk',
      TTS_PROVIDER: 'openai,offline',
      TTS_BASE_URL: 'https://api.openai.com/v1',
      TTS_API_KEY: 'sk',
    });
    expect(names(providers.stt)).toEqual(['deepgram', 'openai', 'offline']);
    expect(names(providers.tts)).toEqual(['openai', 'offline']);
    // Each network provider has its own server and key: the fallback never gets the primary's key.
    const [deepgram, openai] = providers.stt as unknown as { config: { baseUrl: string; apiKey: string } }[];
    expect(deepgram.config).toMatchObject({ baseUrl: 'https://api.deepgram.com/v1', apiKey: 'dg' });
    expect(openai.config).toMatchObject({ baseUrl: 'https://api.openai.com/v1', apiKey: 'sk' });
    expect(() =>
      createSpeechProviders({
        ...OFFLINE,
        STT_PROVIDER: 'deepgram,openai',
        STT_BASE_URL: 'https://api.deepgram.com/v1',
        STT_API_KEY: 'dg',
      }),
    ).toThrow('STT_PROVIDER=deepgram,openai needs STT_FALLBACK_BASE_URL and STT_FALLBACK_API_KEY');
  });

  it('builds local speech without a URL or key, and the offline engine in its place where it cannot run', () => {
    const settings = {
      ...OFFLINE,
      STT_PROVIDER: 'local',
      TTS_PROVIDER: 'local,offline',
      LOCAL_STT_WORKERS: 3,
    };
    const local = createSpeechProviders(settings);
    expect([names(local.stt), names(local.tts)]).toEqual([['local'], ['local', 'offline']]);
    expect(local.stt[0]).toBeInstanceOf(LocalSttProvider);
    expect((local.stt[0] as LocalSttProvider).pool.size).toBe(3);
    const standIn = createSpeechProviders(settings, { localProblem: 'local speech needs espeak-ng' });
    expect([names(standIn.stt), names(standIn.tts)]).toEqual([['offline'], ['offline', 'offline']]);
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
  });

  it('refuses a malformed list: unknown names, a name twice, offline before another', () => {
    for (const [value, message] of [
      ['whisper', /STT_PROVIDER must be offline, local, openai, deepgram, assemblyai or sarvam/],
      ['openai,,offline', /STT_PROVIDER must be/],
      ['', /STT_PROVIDER must be/],
      ['openai,openai', /names a provider twice/],
      ['offline,openai', /offline never fails, so put it last/],
    ] as const) {
      expect(() => createSpeechProviders({ ...OFFLINE, STT_PROVIDER: value })).toThrow(message);
    }
    // AssemblyAI transcribes only: it is no text-to-speech provider.
    expect(() => createSpeechProviders({ ...OFFLINE, TTS_PROVIDER: 'assemblyai' })).toThrow(
      /TTS_PROVIDER must be offline, local, openai, .* or sarvam/,
    );
  });

  it('hints recognition with the first spoken language, Hinglish as Hindi', () => {
    expect(recognitionLanguage(['hinglish', 'en'])).toBe('hi');
    expect(recognitionLanguage(['ta'])).toBe('ta');
    expect(recognitionLanguage(['en-IN'])).toBe('en');
    expect(recognitionLanguage([])).toBeUndefined();
  });
});
