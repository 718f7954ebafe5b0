import { ConfigError, validateConfig } from '@vap/runtime';
import { CallsConfig } from './calls.config';

// Outside development the media plane's URL is required too; the gateway specs give it and leave it be.
const MEDIA = { MEDIA_PUBLIC_URL: 'https://media.example.com' };

describe('CallsConfig: the gateway URLs', () => {
  it('derives callback and recording bases from PUBLIC_BASE_URL', () => {
    const config = validateConfig(CallsConfig, { ...MEDIA, PUBLIC_BASE_URL: 'https://api.example.com/' });
    expect(config.callbackBaseUrl).toBe('https://api.example.com');
    expect(config.publicBaseUrl).toBe('https://api.example.com');
  });

  it('lets CALLBACK_BASE_URL send callbacks elsewhere, and stand in for PUBLIC_BASE_URL', () => {
    const both = validateConfig(CallsConfig, {
      ...MEDIA,
      PUBLIC_BASE_URL: 'https://api.example.com',
      CALLBACK_BASE_URL: 'https://callbacks.example.com',
    });
    expect(both.callbackBaseUrl).toBe('https://callbacks.example.com');
    expect(both.publicBaseUrl).toBe('https://api.example.com');
    expect(
      validateConfig(CallsConfig, { ...MEDIA, CALLBACK_BASE_URL: 'https://cb.example.com' }).publicBaseUrl,
    ).toBe('https://cb.example.com');
  });

  it('needs one outside development, and falls back to the local gateway only in development', () => {
    for (const NODE_ENV of [undefined, 'production', 'test']) {
      expect(() => validateConfig(CallsConfig, { ...MEDIA, NODE_ENV })).toThrow(ConfigError);
      expect(() => validateConfig(CallsConfig, { ...MEDIA, NODE_ENV })).toThrow(
        /PUBLIC_BASE_URL must be set/,
      );
    }
    expect(validateConfig(CallsConfig, { NODE_ENV: 'development' }).callbackBaseUrl).toBe(
      'http://127.0.0.1:3000',
    );
    expect(() => validateConfig(CallsConfig, { ...MEDIA, PUBLIC_BASE_URL: 'api.example.com' })).toThrow(
      /PUBLIC_BASE_URL/,
    );
  });
});

describe('CallsConfig: the media plane URL', () => {
  const GATEWAY = { PUBLIC_BASE_URL: 'https://api.example.com' };

  it('takes an http(s) or ws(s) base, with or without a path prefix', () => {
    for (const url of [
      'https://media.example.com',
      'wss://media.example.com:8443/voice',
      'http://10.0.0.5:3005',
    ]) {
      expect(validateConfig(CallsConfig, { ...GATEWAY, MEDIA_PUBLIC_URL: url }).MEDIA_PUBLIC_URL).toBe(url);
    }
  });

  it('is required outside development and defaults to the local voice service in development', () => {
    for (const NODE_ENV of [undefined, 'production', 'test']) {
      expect(() => validateConfig(CallsConfig, { ...GATEWAY, NODE_ENV })).toThrow(
        /MEDIA_PUBLIC_URL must be set/,
      );
    }
    expect(validateConfig(CallsConfig, { NODE_ENV: 'development' }).MEDIA_PUBLIC_URL).toBe(
      'http://127.0.0.1:3005',
    );
  });

  it.each([
    'ftp://media.example.com',
    'media.example.com',
    'https://media.example.com/?a=1',
    'https://u:p@m.example.com',
  ])('refuses %s', (MEDIA_PUBLIC_URL) => {
    expect(() => validateConfig(CallsConfig, { ...GATEWAY, MEDIA_PUBLIC_URL })).toThrow(/MEDIA_PUBLIC_URL/);
  });

  it('keeps stream tokens short-lived (60 s by default)', () => {
    expect(validateConfig(CallsConfig, { ...GATEWAY, ...MEDIA }).MEDIA_STREAM_TOKEN_TTL_MS).toBe(60000);
    expect(() =>
      validateConfig(CallsConfig, { ...GATEWAY, ...MEDIA, MEDIA_STREAM_TOKEN_TTL_MS: '3600000' }),
    ).toThrow(/MEDIA_STREAM_TOKEN_TTL_MS/);
  });
});

describe('CallsConfig: the contact policy clock', () => {
  const BASE = { PUBLIC_BASE_URL: 'https://api.example.com', ...MEDIA };

  it('is the wall clock unless a test starts it elsewhere', () => {
    expect(validateConfig(CallsConfig, BASE).CONTACT_POLICY_CLOCK_START).toBeUndefined();
    const start = '2027-03-14T06:55:00Z';
    expect(
      validateConfig(CallsConfig, { ...BASE, NODE_ENV: 'test', CONTACT_POLICY_CLOCK_START: start })
        .CONTACT_POLICY_CLOCK_START,
    ).toBe(start);
  });

  it('refuses a start that is not an instant, and any start in production', () => {
    expect(() =>
      validateConfig(CallsConfig, { ...BASE, NODE_ENV: 'test', CONTACT_POLICY_CLOCK_START: 'tomorrow' }),
    ).toThrow(/CONTACT_POLICY_CLOCK_START must be an ISO 8601 instant/);
    expect(() =>
      validateConfig(CallsConfig, { ...BASE, CONTACT_POLICY_CLOCK_START: '2027-03-14T06:55:00Z' }),
    ).toThrow(/CONTACT_POLICY_CLOCK_START is for tests/);
  });
});
