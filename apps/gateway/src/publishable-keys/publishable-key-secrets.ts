import { randomBytes } from 'node:crypto';
import { PUBLISHABLE_KEY_PREFIX } from '@vap/api';
import { hashApiKey } from '../auth/api-key-secrets';

const SECRET_BYTES = 30; // 40 base64url characters
const LOOKUP_CHARS = 12;
const KEY_PATTERN = /^pk_live_[A-Za-z0-9_-]{40}$/;

/** A new publishable key; like an API key, only its hash and a lookup prefix are stored. */
export function generatePublishableKey(): { key: string; lookupPrefix: string; hash: string } {
  const key = PUBLISHABLE_KEY_PREFIX + randomBytes(SECRET_BYTES).toString('base64url');
  return { key, lookupPrefix: publishableLookupPrefix(key), hash: hashApiKey(key) };
}

export function isWellFormedPublishableKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

export function publishableLookupPrefix(key: string): string {
  return key.slice(0, PUBLISHABLE_KEY_PREFIX.length + LOOKUP_CHARS);
}
