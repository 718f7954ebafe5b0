import { randomBytes } from 'node:crypto';
import { DEV_ADMIN_TOKEN, DEV_SECRETS_KEY, isDevelopmentSecret } from './development-secrets';

describe('isDevelopmentSecret', () => {
  it('knows the development token and key, the latter in any encoding', () => {
    const key = Buffer.from(DEV_SECRETS_KEY, 'hex');
    expect(isDevelopmentSecret(DEV_ADMIN_TOKEN)).toBe(true);
    for (const raw of [
      DEV_SECRETS_KEY,
      DEV_SECRETS_KEY.toUpperCase(),
      key.toString('base64'),
      key.toString('base64url'),
    ])
      expect(isDevelopmentSecret(raw)).toBe(true);
    // The old docker/compose.yml fallback, as hex.
    expect(
      isDevelopmentSecret(
        Buffer.from('7ph0zrhiRMj3sHGknfSZyc6UGAZtp3O6h2j/88KEnfc=', 'base64').toString('hex'),
      ),
    ).toBe(true);
  });

  it('lets real secrets through', () => {
    expect(isDevelopmentSecret(randomBytes(32).toString('base64'))).toBe(false);
    expect(isDevelopmentSecret(randomBytes(24).toString('hex'))).toBe(false);
  });
});
