import { validateConfig } from '@vap/runtime';
import { AgentsConfig } from '../config/agents.config';
import { SpeechConfig } from '../config/speech.config';
import { SpeechDeployment, tiersOf } from './speech-deployment';

const KEY = 'platform-key-0123456789';

function deployment(env: Record<string, string>, nodeEnv = 'test'): SpeechDeployment {
  const agents = Object.assign(new AgentsConfig(), { NODE_ENV: nodeEnv });
  return new SpeechDeployment(validateConfig(SpeechConfig, env), agents);
}

describe('SpeechConfig', () => {
  it('reads every provider’s key, base URL and tiers, and the shared settings', () => {
    const config = validateConfig(SpeechConfig, {
      SPEECH_ELEVENLABS_API_KEY: KEY,
      SPEECH_ELEVENLABS_BASE_URL: 'http://127.0.0.1:9999',
      SPEECH_ELEVENLABS_TIERS: 'premium, enterprise',
      SPEECH_OFFLINE_STAND_IN: 'false',
      SPEECH_KEY_CHECK_TIMEOUT_MS: '1500',
    });
    expect(config).toMatchObject({
      SPEECH_ELEVENLABS_API_KEY: KEY,
      SPEECH_ELEVENLABS_TIERS: 'premium, enterprise',
      SPEECH_OFFLINE_STAND_IN: false,
      SPEECH_KEY_CHECK_TIMEOUT_MS: 1500,
    });
  });

  it.each([
    [{ SPEECH_OPENAI_TIERS: 'gold' }, /SPEECH_OPENAI_TIERS must be a comma-separated list/],
    [{ SPEECH_DEEPGRAM_BASE_URL: 'ftp://x' }, /SPEECH_DEEPGRAM_BASE_URL must be an http\(s\) URL/],
    [{ SPEECH_SARVAM_API_KEY: 'short' }, /SPEECH_SARVAM_API_KEY must be 8 to 512 characters/],
    [{ SPEECH_AZURE_API_KEY: KEY }, /SPEECH_AZURE_REGION must be an Azure region name/],
    [{ SPEECH_OFFLINE_STAND_IN: 'yes' }, /SPEECH_OFFLINE_STAND_IN must be one of the following values/],
    [{ SPEECH_KEY_CHECK_TIMEOUT_MS: '60000' }, /SPEECH_KEY_CHECK_TIMEOUT_MS/],
  ])('refuses %p', (env, problem) => {
    expect(() => validateConfig(SpeechConfig, env)).toThrow(problem);
  });

  it('never shows a refused key', () => {
    expect(() => validateConfig(SpeechConfig, { SPEECH_OPENAI_API_KEY: 'sk-x' })).toThrow(
      /SPEECH_OPENAI_API_KEY: .*a value of 4 characters, not shown/,
    );
  });
});

describe('SpeechDeployment', () => {
  it('reads a tier list; unset is every tier', () => {
    expect(tiersOf(undefined)).toEqual(['standard', 'premium', 'enterprise']);
    expect(tiersOf(' enterprise ,premium')).toEqual(['premium', 'enterprise']);
  });

  it('offers the platform’s key to the tiers its setting names only', () => {
    const d = deployment({ SPEECH_ELEVENLABS_API_KEY: KEY, SPEECH_ELEVENLABS_TIERS: 'premium' });
    expect(d.platformKeyFor('elevenlabs', 'premium')).toMatchObject({ apiKey: KEY });
    expect(d.platformKeyFor('elevenlabs', 'standard')).toBeUndefined();
    expect(d.platformKeyFor('elevenlabs', 'enterprise')).toBeUndefined();
    // An unknown tier is the base tier, never more.
    expect(d.platformKeyFor('elevenlabs', 'gold')).toBeUndefined();
    expect(d.platformKeyFor('cartesia', 'premium')).toBeUndefined();
  });

  it('points at the provider’s public API unless a setting overrides it, with a key’s region put in', () => {
    const d = deployment({
      SPEECH_OPENAI_BASE_URL: 'http://127.0.0.1:4010/v1',
      SPEECH_AZURE_BASE_URL: 'https://{region}.proxy.example',
    });
    expect(d.baseUrl('openai')).toBe('http://127.0.0.1:4010/v1');
    expect(d.baseUrl('deepgram')).toMatch(/^https:\/\/api\.deepgram\.com/);
    expect(d.baseUrl('azure', 'centralindia')).toBe('https://centralindia.proxy.example');
  });

  it('lets the offline engine stand in by default outside production only, and as set', () => {
    expect(deployment({}, 'test').offlineStandIn).toBe(true);
    expect(deployment({}, 'development').offlineStandIn).toBe(true);
    expect(deployment({}, 'production').offlineStandIn).toBe(false);
    expect(deployment({ SPEECH_OFFLINE_STAND_IN: 'false' }, 'test').offlineStandIn).toBe(false);
    expect(deployment({ SPEECH_OFFLINE_STAND_IN: 'true' }, 'production').offlineStandIn).toBe(true);
  });

  it('keeps the Azure key’s region with the platform’s key', () => {
    const d = deployment({ SPEECH_AZURE_API_KEY: KEY, SPEECH_AZURE_REGION: 'centralindia' });
    expect(d.platformKeyFor('azure', 'standard')).toEqual({
      provider: 'azure',
      apiKey: KEY,
      region: 'centralindia',
      tiers: ['standard', 'premium', 'enterprise'],
    });
  });
});
