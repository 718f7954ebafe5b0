import { join } from 'node:path';
import {
  BaseServiceConfig,
  ConfigError,
  configVariableNames,
  envExampleVariableNames,
  validateConfig,
} from '@vap/runtime';
import { DEV_SECRETS_KEY, streamTokenKeyOf } from '@vap/secrets';
import { BlobStoreConfig } from '@vap/storage';
import { VoiceConfig } from './voice.config';

const KEY = 'ab'.repeat(32);
const base = {
  NODE_ENV: 'production',
  STREAM_TOKEN_KEY: KEY,
  MEDIA_PUBLIC_URL: 'https://media.example.com/',
  STT_PROVIDER: 'offline',
  TTS_PROVIDER: 'offline',
};

/** The boot refusal's lines. */
function problemsOf(env: Record<string, string | undefined>): string[] {
  try {
    validateConfig(VoiceConfig, env);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}

describe('VoiceConfig', () => {
  it('reads the defaults: port 3005, real-time media clock, a drain longer than any call, 200 streams', () => {
    const config = validateConfig(VoiceConfig, base);
    expect(config).toMatchObject({
      PORT: 3005,
      STT_PROVIDER: 'offline',
      TTS_PROVIDER: 'offline',
      MEDIA_TIME_SCALE: 1,
      // The longest call an agent may have (an hour) and a minute: a rollout waits for calls, not cuts them.
      DRAIN_DEADLINE_MS: 3_660_000,
      MAX_LIVE_SESSIONS: 200,
      PROVIDER_TIMEOUT_MS: 8000,
      LLM_MODEL: 'gpt-4o-mini',
    });
    expect(config.mediaPublicUrl).toBe('https://media.example.com');
    expect(config).toMatchObject({
      MEDIA_MAX_MESSAGE_BYTES: 8192,
      MEDIA_AUDIO_BURST_MS: 2000,
      MEDIA_MAX_UTTERANCE_MS: 30000,
      MEDIA_PING_INTERVAL_MS: 10000,
      MEDIA_INBOUND_SILENCE_MS: 10000,
      MEDIA_MAX_BUFFERED_BYTES: 262144,
    });
    expect(config.streamTokenKey).toEqual(Buffer.from(KEY, 'hex'));
  });

  it('needs MEDIA_PUBLIC_URL outside development, and defaults it to its own port in development', () => {
    expect(() => validateConfig(VoiceConfig, { ...base, MEDIA_PUBLIC_URL: undefined })).toThrow(
      /MEDIA_PUBLIC_URL must be set/,
    );
    expect(() =>
      validateConfig(VoiceConfig, { ...base, MEDIA_PUBLIC_URL: 'https://m.example.com?x=1' }),
    ).toThrow(/MEDIA_PUBLIC_URL must be/);
    const dev = validateConfig(VoiceConfig, { NODE_ENV: 'development', PORT: '4005' });
    expect(dev.mediaPublicUrl).toBe('http://127.0.0.1:4005');
  });

  it('takes a fractional media clock speed within bounds', () => {
    expect(validateConfig(VoiceConfig, { ...base, MEDIA_TIME_SCALE: '4' }).MEDIA_TIME_SCALE).toBe(4);
    // Whole, as the calls service's: the two clocks are set alike.
    expect(() => validateConfig(VoiceConfig, { ...base, MEDIA_TIME_SCALE: '2.5' })).toThrow(ConfigError);
    expect(() => validateConfig(VoiceConfig, { ...base, MEDIA_TIME_SCALE: '0' })).toThrow(ConfigError);
    expect(() => validateConfig(VoiceConfig, { ...base, MEDIA_TIME_SCALE: 'fast' })).toThrow(ConfigError);
  });

  it('takes per-stream bounds within their ranges only', () => {
    const config = validateConfig(VoiceConfig, {
      ...base,
      MEDIA_MAX_MESSAGE_BYTES: '4096',
      MEDIA_INBOUND_SILENCE_MS: '1500',
    });
    expect(config).toMatchObject({ MEDIA_MAX_MESSAGE_BYTES: 4096, MEDIA_INBOUND_SILENCE_MS: 1500 });
    for (const [name, value] of [
      ['MEDIA_MAX_MESSAGE_BYTES', '300000'],
      ['MEDIA_MAX_MESSAGE_BYTES', '100'],
      ['MEDIA_AUDIO_BURST_MS', '0'],
      ['MEDIA_MAX_UTTERANCE_MS', '1.5'],
      ['MEDIA_PING_INTERVAL_MS', '-1'],
      ['MEDIA_INBOUND_SILENCE_MS', ''],
      ['MEDIA_MAX_BUFFERED_BYTES', '1024'],
    ]) {
      expect(() => validateConfig(VoiceConfig, { ...base, [name]: value })).toThrow(new RegExp(name));
    }
  });

  it('takes a whole MAX_LIVE_SESSIONS of at least 1', () => {
    expect(validateConfig(VoiceConfig, { ...base, MAX_LIVE_SESSIONS: '50' }).MAX_LIVE_SESSIONS).toBe(50);
    for (const bad of ['0', '-1', '2.5', 'many']) {
      expect(() => validateConfig(VoiceConfig, { ...base, MAX_LIVE_SESSIONS: bad })).toThrow(
        /MAX_LIVE_SESSIONS/,
      );
    }
  });

  it.each(['production', 'test', undefined])(
    'refuses to boot with NODE_ENV=%s unless the speech providers are named, one line each',
    (NODE_ENV) => {
      const env = { ...base, NODE_ENV, STT_PROVIDER: undefined, TTS_PROVIDER: undefined };
      const problems = problemsOf(env);
      expect(problems).toEqual([
        expect.stringMatching(/^STT_PROVIDER: STT_PROVIDER must be chosen outside development: .*not set\)$/),
        expect.stringMatching(/^TTS_PROVIDER: TTS_PROVIDER must be chosen outside development: .*not set\)$/),
      ]);
      expect(problems[0]).toContain("offline understands only the platform's own synthetic speech");
      expect(problemsOf({ ...env, STT_PROVIDER: '', TTS_PROVIDER: ' ' })).toHaveLength(2);
      // Offline is allowed when it is named.
      expect(problemsOf({ ...env, STT_PROVIDER: 'offline', TTS_PROVIDER: 'offline' })).toEqual([]);
    },
  );

  it('runs local speech in development when no provider is named, the offline voice behind it', () => {
    const dev = validateConfig(VoiceConfig, { NODE_ENV: 'development' });
    expect([dev.STT_PROVIDER, dev.TTS_PROVIDER]).toEqual(['local', 'local,offline']);
    expect(validateConfig(VoiceConfig, { NODE_ENV: 'development', STT_PROVIDER: '' }).STT_PROVIDER).toBe(
      'local',
    );
    // Local speech needs no base URL or key.
    expect(dev.sttNetworkProviders).toBe(0);
    expect(problemsOf({ ...base, STT_PROVIDER: 'local', TTS_PROVIDER: 'local' })).toEqual([]);
    expect(
      problemsOf({ ...base, STT_PROVIDER: 'local', TTS_PROVIDER: 'local', LOCAL_STT_WORKERS: '17' }),
    ).toEqual([expect.stringMatching(/^LOCAL_STT_WORKERS: LOCAL_STT_WORKERS must not be greater than 16/)]);
  });

  it('takes provider lists to fall back along, the second network STT provider on STT_FALLBACK_*', () => {
    const config = validateConfig(VoiceConfig, {
      ...base,
      STT_PROVIDER: 'deepgram,openai',
      STT_BASE_URL: 'https://api.deepgram.com/v1',
      STT_FALLBACK_BASE_URL: 'https://api.openai.com/v1',
      TTS_PROVIDER: 'openai,offline',
      TTS_BASE_URL: 'https://api.openai.com/v1',
    });
    expect([config.STT_PROVIDER, config.TTS_PROVIDER]).toEqual(['deepgram,openai', 'openai,offline']);
    expect(
      problemsOf({ ...base, STT_PROVIDER: 'deepgram,openai', STT_BASE_URL: 'https://api.deepgram.com/v1' }),
    ).toEqual([expect.stringMatching(/^STT_FALLBACK_BASE_URL: .*required when STT_PROVIDER lists two/)]);
    expect(
      problemsOf({ ...base, STT_PROVIDER: 'offline,openai', STT_BASE_URL: 'https://x.example' }),
    ).toEqual([expect.stringMatching(/^STT_PROVIDER: STT_PROVIDER lists offline before another provider/)]);
    expect(problemsOf({ ...base, TTS_PROVIDER: 'openai,openai', TTS_BASE_URL: 'https://x.example' })).toEqual(
      [expect.stringMatching(/^TTS_PROVIDER: TTS_PROVIDER names a provider twice/)],
    );
    expect(problemsOf({ ...base, TTS_PROVIDER: 'assemblyai' })).toEqual([
      expect.stringMatching(
        /^TTS_PROVIDER: TTS_PROVIDER must be offline, local, openai, .* or sarvam, or a comma-separated list/,
      ),
    ]);
  });

  it('takes a fallback LLM server only behind LLM_BASE_URL, with its own key and model', () => {
    const config = validateConfig(VoiceConfig, {
      ...base,
      LLM_BASE_URL: 'https://api.openai.com/v1',
      LLM_FALLBACK_BASE_URL: 'https://api.groq.com/openai/v1',
      LLM_FALLBACK_API_KEY: 'gsk-1',
      LLM_FALLBACK_MODEL: 'llama-3.1-8b-instant',
    });
    expect(config.LLM_FALLBACK_MODEL).toBe('llama-3.1-8b-instant');
    expect(problemsOf({ ...base, LLM_FALLBACK_BASE_URL: 'https://api.groq.com/openai/v1' })).toEqual([
      expect.stringMatching(/^LLM_FALLBACK_BASE_URL: LLM_FALLBACK_BASE_URL needs LLM_BASE_URL/),
    ]);
    expect(
      problemsOf({
        ...base,
        LLM_BASE_URL: 'https://api.openai.com/v1',
        LLM_FALLBACK_BASE_URL: 'http://10.0.0.7:8000/v1',
      }),
    ).toEqual([expect.stringMatching(/^LLM_FALLBACK_BASE_URL: .*private or loopback/)]);
  });

  it('needs a base URL for a network provider', () => {
    expect(() => validateConfig(VoiceConfig, { ...base, STT_PROVIDER: 'deepgram' })).toThrow(/STT_BASE_URL/);
    expect(() => validateConfig(VoiceConfig, { ...base, TTS_PROVIDER: 'openai' })).toThrow(/TTS_BASE_URL/);
    expect(() => validateConfig(VoiceConfig, { ...base, STT_PROVIDER: 'whisper' })).toThrow(/STT_PROVIDER/);
    const openai = validateConfig(VoiceConfig, {
      ...base,
      STT_PROVIDER: 'openai',
      STT_BASE_URL: 'https://stt.example.com',
      TTS_PROVIDER: 'openai',
      TTS_BASE_URL: 'https://tts.example.com',
    });
    expect(openai.STT_BASE_URL).toBe('https://stt.example.com');
  });

  it('refuses provider URLs on private or loopback addresses unless private networks are allowed', () => {
    for (const url of [
      'http://127.0.0.1:9000',
      'http://10.0.0.5',
      'http://169.254.169.254',
      'http://localhost:1',
    ]) {
      expect(() => validateConfig(VoiceConfig, { ...base, LLM_BASE_URL: url })).toThrow(
        /LLM_BASE_URL points at a private or loopback address/,
      );
    }
    for (const allow of ['PROVIDER_ALLOW_PRIVATE_NETWORKS', 'WEBHOOK_ALLOW_PRIVATE_NETWORKS']) {
      const config = validateConfig(VoiceConfig, {
        ...base,
        LLM_BASE_URL: 'http://127.0.0.1:9000',
        [allow]: 'true',
      });
      expect(config.LLM_BASE_URL).toBe('http://127.0.0.1:9000');
    }
    expect(
      validateConfig(VoiceConfig, { ...base, LLM_BASE_URL: 'https://llm.example.com' }).LLM_BASE_URL,
    ).toBe('https://llm.example.com');
  });

  it('needs STREAM_TOKEN_KEY outside development, and refuses the development one there', () => {
    expect(() => validateConfig(VoiceConfig, { ...base, STREAM_TOKEN_KEY: undefined })).toThrow(
      /STREAM_TOKEN_KEY must be 32 bytes/,
    );
    expect(() =>
      validateConfig(VoiceConfig, { ...base, STREAM_TOKEN_KEY: streamTokenKeyOf(DEV_SECRETS_KEY) }),
    ).toThrow(/STREAM_TOKEN_KEY: a development-only value/);
  });

  it('refuses the master SECRETS_KEY outside development, even beside STREAM_TOKEN_KEY', () => {
    for (const NODE_ENV of ['production', 'test']) {
      expect(() => validateConfig(VoiceConfig, { ...base, NODE_ENV, SECRETS_KEY: KEY })).toThrow(
        /SECRETS_KEY: voice does not take the master key; give it STREAM_TOKEN_KEY/,
      );
    }
  });

  it('in development checks tokens with the key the calls service derives from the development SECRETS_KEY', () => {
    const dev = validateConfig(VoiceConfig, { NODE_ENV: 'development' });
    expect(dev.streamTokenKey.toString('base64')).toBe(streamTokenKeyOf(DEV_SECRETS_KEY));
  });
});

it('.env.example documents exactly the variables the voice service reads', () => {
  const read = configVariableNames(BaseServiceConfig, VoiceConfig, BlobStoreConfig);
  expect(envExampleVariableNames(join(__dirname, '../../.env.example'))).toEqual(read);
});
