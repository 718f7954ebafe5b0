import { ErrorCode } from '@vap/messages';
import type { SpeechPlugin } from '@vap/speech';
import { keyCheckError, regionProblem } from './provider-key-check';

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

  it('is a 502 saying nothing was saved when the provider does not answer', () => {
    const err = keyCheckError(
      'Cartesia',
      { ok: false, reason: 'unreachable', message: 'no answer within 5000 ms' },
      key,
    );
    expect([err.code, err.status, err.message]).toEqual([
      ErrorCode.INTERNAL_ERROR,
      502,
      'Cartesia did not answer the key check: no answer within 5000 ms; the key was not saved',
    ]);
  });
});
