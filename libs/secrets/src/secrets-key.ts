/** Length of an AES-256 key. */
export const SECRETS_KEY_BYTES = 32;

/**
 * Reads SECRETS_KEY: 32 bytes written as 64 hex characters or as base64 (standard or URL-safe, padded or
 * not). Anything else is refused, so a typo can never silently become a weaker or different key.
 */
export function parseSecretsKey(raw: string | undefined, setting = 'SECRETS_KEY'): Buffer {
  const value = (raw ?? '').trim();
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}={0,1}$/.test(value)) {
    const key = Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (key.length === SECRETS_KEY_BYTES) return key;
  }
  throw new Error(`${setting} must be 32 bytes as 64 hex characters or base64 (openssl rand -base64 32)`);
}

/** The boolean form for config validation. */
export function isSecretsKey(raw: unknown): boolean {
  try {
    parseSecretsKey(typeof raw === 'string' ? raw : undefined);
    return true;
  } catch {
    return false;
  }
}
