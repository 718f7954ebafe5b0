import { randomBytes } from 'node:crypto';
import { SecretBox, SecretTamperedError } from './secret-box';
import { isSecretsKey, parseSecretsKey } from './secrets-key';

const key = randomBytes(32);

function flipByte(sealed: string, part: number): string {
  const parts = sealed.split('.');
  const bytes = Buffer.from(parts[part], 'base64url');
  bytes[0] ^= 0x01;
  parts[part] = bytes.toString('base64url');
  return parts.join('.');
}

describe('SecretBox', () => {
  const box = new SecretBox(key);

  it('round-trips a value', () => {
    const sealed = box.seal('auth-token-123', 'ctx');
    expect(sealed).not.toContain('auth-token-123');
    expect(box.open(sealed, 'ctx')).toBe('auth-token-123');
  });

  it('uses a fresh IV for every value', () => {
    const a = box.seal('same', 'ctx');
    const b = box.seal('same', 'ctx');
    expect(a).not.toBe(b);
    expect(a.split('.')[1]).not.toBe(b.split('.')[1]);
  });

  it.each([
    ['the ciphertext', 3],
    ['the auth tag', 2],
    ['the IV', 1],
  ])('detects a change to %s', (_label, part) => {
    const sealed = box.seal('secret value', 'ctx');
    expect(() => box.open(flipByte(sealed, part), 'ctx')).toThrow(SecretTamperedError);
  });

  it('refuses another context, another key and malformed input', () => {
    const sealed = box.seal('secret value', 'row-1');
    expect(() => box.open(sealed, 'row-2')).toThrow(SecretTamperedError);
    expect(() => new SecretBox(randomBytes(32)).open(sealed, 'row-1')).toThrow(SecretTamperedError);
    expect(() => box.open('v1.abc', 'row-1')).toThrow(SecretTamperedError);
    expect(() => box.open(sealed.replace(/^v1/, 'v9'), 'row-1')).toThrow(SecretTamperedError);
  });
});

describe('parseSecretsKey', () => {
  it('accepts 64 hex characters and base64 of 32 bytes', () => {
    expect(parseSecretsKey(key.toString('hex'))).toEqual(key);
    expect(parseSecretsKey(key.toString('base64'))).toEqual(key);
    expect(parseSecretsKey(key.toString('base64url'))).toEqual(key);
  });

  it.each([
    undefined,
    '',
    'short',
    'a'.repeat(63),
    randomBytes(16).toString('base64'),
    randomBytes(48).toString('base64'),
  ])('refuses %p', (raw) => {
    expect(() => parseSecretsKey(raw)).toThrow(/SECRETS_KEY/);
    expect(isSecretsKey(raw)).toBe(false);
  });
});
