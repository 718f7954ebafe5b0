import { hkdfSync } from 'node:crypto';
import { parseSecretsKey } from './secrets-key';

/**
 * A key for one purpose derived from SECRETS_KEY (HKDF-SHA256 with the purpose as info), so services
 * that must agree on a signing key (calls issues media-stream tokens, voice verifies them) share one
 * setting, and a key derived for one purpose never verifies another's signatures.
 */
export function deriveKey(secretsKey: Buffer, purpose: string, bytes = 32): Buffer {
  return Buffer.from(hkdfSync('sha256', secretsKey, Buffer.alloc(0), `vap.${purpose}`, bytes));
}

/** The key of media-stream tokens (see @vap/media stream-token). */
export function mediaStreamTokenKey(secretsKey: Buffer): Buffer {
  return deriveKey(secretsKey, 'media-stream-token');
}

/**
 * The voice service's STREAM_TOKEN_KEY (base64) for a SECRETS_KEY: the calls service signs stream URLs with
 * the key derived from SECRETS_KEY, and voice, which faces the internet, holds only that derived key.
 */
export function streamTokenKeyOf(secretsKey: string): string {
  return mediaStreamTokenKey(parseSecretsKey(secretsKey)).toString('base64');
}
