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
};

describe('VoiceConfig', () => {
  it('reads the defaults: port 3005, offline speech, real-time media clock, 30 s drain', () => {
    const config = validateConfig(VoiceConfig, base);
    expect(config).toMatchObject({
      PORT: 3005,
      STT_PROVIDER: 'offline',
      TTS_PROVIDER: 'offline',
      MEDIA_TIME_SCALE: 1,
      DRAIN_DEADLINE_MS: 30000,
      PROVIDER_TIMEOUT_MS: 8000,
      LLM_MODEL: 'gpt-4o-mini',
    });
    expect(config.mediaPublicUrl).toBe('https://media.example.com');
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
