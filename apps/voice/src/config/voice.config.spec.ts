import { join } from 'node:path';
import {
  BaseServiceConfig,
  ConfigError,
  configVariableNames,
  envExampleVariableNames,
  validateConfig,
} from '@vap/runtime';
import { BlobStorageConfig } from '@vap/storage';
import { VoiceConfig } from './voice.config';

const KEY = 'ab'.repeat(32);
const base = { NODE_ENV: 'production', SECRETS_KEY: KEY, MEDIA_PUBLIC_URL: 'https://media.example.com/' };

describe('VoiceConfig', () => {
  it('reads the defaults: port 3005, offline speech, real-time media clock, a drain longer than any call, 200 streams', () => {
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
    expect(config.secretsKey).toEqual(Buffer.from(KEY, 'hex'));
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

  it('refuses the development secrets key outside development', () => {
    expect(() =>
      validateConfig(VoiceConfig, {
        ...base,
        SECRETS_KEY: Buffer.from('development-only-key-do-not-use!').toString('hex'),
      }),
    ).toThrow(/SECRETS_KEY/);
  });
});

it('.env.example documents exactly the variables the voice service reads', () => {
  const read = configVariableNames(BaseServiceConfig, VoiceConfig, BlobStorageConfig);
  expect(envExampleVariableNames(join(__dirname, '../../.env.example'))).toEqual(read);
});
