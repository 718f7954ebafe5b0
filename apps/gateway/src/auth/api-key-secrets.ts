import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const API_KEY_PREFIX = 'rg_live_';
const SECRET_BYTES = 30; // 40 base64url characters
const LOOKUP_CHARS = 12;
const KEY_PATTERN = /^rg_live_[A-Za-z0-9_-]{40}$/;

export interface GeneratedKey {
  key: string;
  lookupPrefix: string;
  hash: string;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** A new key: shown once to its owner; only its hash and a lookup prefix are stored. */
export function generateApiKey(): GeneratedKey {
  const key = API_KEY_PREFIX + randomBytes(SECRET_BYTES).toString('base64url');
  return { key, lookupPrefix: lookupPrefixOf(key), hash: hashApiKey(key) };
}

export function isWellFormedApiKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

export function lookupPrefixOf(key: string): string {
  return key.slice(0, API_KEY_PREFIX.length + LOOKUP_CHARS);
}

/** Constant-time check of a presented key against a stored hash. */
export function apiKeyMatches(key: string, storedHash: string): boolean {
  const presented = Buffer.from(hashApiKey(key), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}

/** Constant-time comparison of two secrets of any length (hashing first equalises the lengths). */
export function secretsEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}
