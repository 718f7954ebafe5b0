import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { parseSecretsKey } from './secrets-key';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A sealed value could not be opened: wrong key, altered bytes or a different context. */
export class SecretTamperedError extends Error {
  constructor() {
    super('stored secret failed authentication (tampered, wrong key or wrong context)');
    this.name = 'SecretTamperedError';
  }
}

/**
 * AES-256-GCM for secrets at rest. Every value gets a fresh random 96-bit IV; the auth tag is checked on
 * open. `context` (e.g. `carrier_connection:<id>:auth_token`) is bound as additional authenticated data,
 * so a ciphertext copied into another row or field does not open there.
 *
 * Sealed format: `v1.<iv>.<tag>.<ciphertext>`, each part base64url.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(key: Buffer | string) {
    this.key = typeof key === 'string' ? parseSecretsKey(key) : key;
    if (this.key.length !== 32) throw new Error('SecretBox needs a 32-byte key');
  }

  seal(plaintext: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [VERSION, iv, tag, ciphertext]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  open(sealed: string, context: string): string {
    const parts = sealed.split('.');
    if (parts.length !== 4 || parts[0] !== VERSION) throw new SecretTamperedError();
    const [iv, tag, ciphertext] = parts.slice(1).map((p) => Buffer.from(p, 'base64url'));
    if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new SecretTamperedError();
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretTamperedError();
    }
  }
}
