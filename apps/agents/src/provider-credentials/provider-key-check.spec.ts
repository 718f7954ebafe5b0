import { ErrorCode } from '@vap/messages';
import type { SpeechPlugin } from '@vap/speech';
import { hostOf, keyCheckError, regionProblem } from './provider-key-check';

const plugin = (needsRegion: boolean) =>
  ({
    name: 'azure',
    label: needsRegion ? 'Azure Speech' : 'Cartesia',
    needsRegion,
  }) as unknown as SpeechPlugin;

describe('regionProblem', () => {
  it('requires a region where keys belong to one', () => {
    expect(regionProblem(plugin(true), null)).toEqual({
      field: 'region',
      message: 'region is required for Azure Speech keys (e.g. centralindia)',
    });
    expect(regionProblem(plugin(true), 'centralindia')).toBeNull();
  });

  it('refuses a region where keys have none', () => {
    expect(regionProblem(plugin(false), 'eastus')?.field).toBe('region');
    expect(regionProblem(plugin(false), null)).toBeNull();
  });
});

describe('keyCheckError', () => {
  const key = 'key-that-must-not-leak-9876';

  it('is a 400 on api_key quoting the provider when it refuses the key', () => {
    const err = keyCheckError(
      'ElevenLabs',
      { ok: false, reason: 'rejected', status: 401, message: `invalid_api_key ${key}` },
      key,
    );
    expect(err.toPayload()).toEqual({
      code: ErrorCode.VALIDATION_ERROR,
      status: 400,
      message: 'ElevenLabs refused the key: invalid_api_key …9876',
      details: [{ field: 'api_key', message: 'ElevenLabs refused the key: invalid_api_key …9876' }],
    });
  });

  it('is a 502 saying nothing was saved, and to try again, when the provider answers with a failure', () => {
    const err = keyCheckError(
      'Cartesia',
      { ok: false, reason: 'unreachable', status: 503, message: 'overloaded' },
      key,
      'api.cartesia.ai',
    );
    expect([err.code, err.status, err.message]).toEqual([
      ErrorCode.INTERNAL_ERROR,
      502,
      'Cartesia did not answer the key check: overloaded; the key was not saved. Try again in a moment',
    ]);
  });

  it('says a provider this deployment cannot reach, and which host the operator must allow, without the resolver text', () => {
    for (const connection of ['dns', 'refused'] as const) {
      const err = keyCheckError(
        'Deepgram',
        { ok: false, reason: 'unreachable', message: 'getaddrinfo ENOTFOUND api.deepgram.com', connection },
        key,
        'api.deepgram.com',
      );
      expect([err.code, err.status]).toEqual([ErrorCode.INTERNAL_ERROR, 502]);
      expect(err.message).toBe(
        `Deepgram cannot be reached from this deployment (${
          connection === 'dns' ? 'its address does not resolve here' : 'the connection was refused'
        }), so the key was not checked or saved: the platform operator must allow this deployment outbound ` +
          'HTTPS access to api.deepgram.com; trying again will not help until then',
      );
      expect(err.message).not.toMatch(/ENOTFOUND|getaddrinfo|Try again/);
    }
  });

  it('names the host to allow when nothing answered in time, and that a slow provider is worth another try', () => {
    const err = keyCheckError(
      'Groq',
      { ok: false, reason: 'unreachable', message: 'no answer within 2000 ms', connection: 'timeout' },
      key,
      'api.groq.com',
    );
    expect(err.message).toBe(
      'Groq did not answer the key check: no answer within 2000 ms; the key was not saved. If this deployment ' +
        'cannot reach Groq, the platform operator must allow this deployment outbound HTTPS access to ' +
        'api.groq.com; otherwise try again in a moment',
    );
  });
});

describe('hostOf', () => {
  it('is the host a check goes to, with its port when not the default', () => {
    expect(hostOf('https://api.deepgram.com/v1')).toBe('api.deepgram.com');
    expect(hostOf('http://127.0.0.1:9/v1')).toBe('127.0.0.1:9');
  });
});
