import { ConfigError, validateConfig } from '@vap/runtime';
import { CallsConfig } from './calls.config';

describe('CallsConfig: the gateway URLs', () => {
  it('derives callback and recording bases from PUBLIC_BASE_URL', () => {
    const config = validateConfig(CallsConfig, { PUBLIC_BASE_URL: 'https://api.example.com/' });
    expect(config.callbackBaseUrl).toBe('https://api.example.com');
    expect(config.publicBaseUrl).toBe('https://api.example.com');
  });

  it('lets CALLBACK_BASE_URL send callbacks elsewhere, and stand in for PUBLIC_BASE_URL', () => {
    const both = validateConfig(CallsConfig, {
      PUBLIC_BASE_URL: 'https://api.example.com',
      CALLBACK_BASE_URL: 'https://callbacks.example.com',
    });
    expect(both.callbackBaseUrl).toBe('https://callbacks.example.com');
    expect(both.publicBaseUrl).toBe('https://api.example.com');
    expect(validateConfig(CallsConfig, { CALLBACK_BASE_URL: 'https://cb.example.com' }).publicBaseUrl).toBe(
      'https://cb.example.com',
    );
  });

  it('needs one outside development, and falls back to the local gateway only in development', () => {
    for (const NODE_ENV of [undefined, 'production', 'test']) {
      expect(() => validateConfig(CallsConfig, { NODE_ENV })).toThrow(ConfigError);
      expect(() => validateConfig(CallsConfig, { NODE_ENV })).toThrow(/PUBLIC_BASE_URL must be set/);
    }
    expect(validateConfig(CallsConfig, { NODE_ENV: 'development' }).callbackBaseUrl).toBe(
      'http://127.0.0.1:3000',
    );
    expect(() => validateConfig(CallsConfig, { PUBLIC_BASE_URL: 'api.example.com' })).toThrow(
      /PUBLIC_BASE_URL/,
    );
  });
});
