import { randomBytes } from 'node:crypto';
import { ConfigError, validateConfig } from '@vap/runtime';
import { TelephonyConfig } from './telephony.config';

describe('TelephonyConfig', () => {
  const key = randomBytes(32);

  it('accepts a 32-byte key in hex or base64 and carrier base URLs', () => {
    for (const SECRETS_KEY of [key.toString('hex'), key.toString('base64')]) {
      const config = validateConfig(TelephonyConfig, {
        NODE_ENV: 'production',
        SECRETS_KEY,
        CARRIER_A_BASE_URL: 'https://carrier-a.example',
        CARRIER_B_BASE_URL: 'http://127.0.0.1:4010',
      });
      expect(config.SECRETS_KEY).toBe(SECRETS_KEY);
      expect(config.CARRIER_HTTP_TIMEOUT_MS).toBe(10000);
    }
  });

  it.each([
    ['a short key', { SECRETS_KEY: 'abc' }, /SECRETS_KEY/],
    ['a 16-byte key', { SECRETS_KEY: randomBytes(16).toString('hex') }, /SECRETS_KEY/],
    [
      'a carrier URL that is not http(s)',
      { SECRETS_KEY: key.toString('hex'), CARRIER_A_BASE_URL: 'ftp://x' },
      /CARRIER_A_BASE_URL/,
    ],
    [
      'a timeout out of range',
      { SECRETS_KEY: key.toString('hex'), CARRIER_HTTP_TIMEOUT_MS: '5' },
      /CARRIER_HTTP_TIMEOUT_MS/,
    ],
  ])('refuses %s at boot', (_label, env, problem) => {
    expect(() => validateConfig(TelephonyConfig, { NODE_ENV: 'production', ...env })).toThrow(ConfigError);
    expect(() => validateConfig(TelephonyConfig, { NODE_ENV: 'production', ...env })).toThrow(problem);
  });
});
