import { randomBytes } from 'node:crypto';
import { SecretTamperedError } from '@vap/secrets';
import { CustomFunctionsConfig } from '../config/custom-functions.config';
import { maskedKey, ProviderKeySealer, withoutKey } from './provider-key-sealer';

const sealer = () =>
  new ProviderKeySealer(
    Object.assign(new CustomFunctionsConfig(), { SECRETS_KEY: randomBytes(32).toString('hex') }),
  );

describe('ProviderKeySealer', () => {
  it('seals a key so that only its own row opens it, and never in clear', () => {
    const box = sealer();
    const key = 'sk-proj-abcdefghijklmnop1234';
    const sealed = box.seal('pcred_a', key);
    expect(sealed).not.toContain(key);
    expect(sealed).not.toContain(Buffer.from(key).toString('base64url'));
    expect(box.open('pcred_a', sealed)).toBe(key);
    // Copied into another credential's row, it does not open.
    expect(() => box.open('pcred_b', sealed)).toThrow(SecretTamperedError);
    // Nor under another deployment's SECRETS_KEY.
    expect(() => sealer().open('pcred_a', sealed)).toThrow(SecretTamperedError);
  });

  it('makes model server signing secrets that open only as their own row’s secret, never as its key', () => {
    const box = sealer();
    const secret = box.generateSigningSecret();
    expect(secret).toMatch(/^mssec_[A-Za-z0-9_-]{43}$/);
    expect(box.generateSigningSecret()).not.toBe(secret);
    const sealed = box.sealSigningSecret('pcred_a', secret);
    expect(sealed).not.toContain(secret);
    expect(box.openSigningSecret('pcred_a', sealed)).toBe(secret);
    expect(() => box.openSigningSecret('pcred_b', sealed)).toThrow(SecretTamperedError);
    // The key column's context does not open the secret column's value.
    expect(() => box.open('pcred_a', sealed)).toThrow(SecretTamperedError);
  });

  it('seals the same key differently each time', () => {
    const box = sealer();
    expect(box.seal('pcred_a', 'same-key-123')).not.toBe(box.seal('pcred_a', 'same-key-123'));
  });
});

describe('masking', () => {
  it('shows a key’s last four characters only', () => {
    expect(maskedKey('sk-proj-abcdefghijklmnop1234')).toBe('…1234');
  });

  it('takes a key a provider echoes out of its answer', () => {
    const key = 'sk-wrong-key-5678';
    expect(withoutKey(`Incorrect API key provided: ${key}. Check ${key}`, key)).toBe(
      'Incorrect API key provided: …5678. Check …5678',
    );
    expect(withoutKey('Invalid key', key)).toBe('Invalid key');
  });
});
