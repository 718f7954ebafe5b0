import { createHash, randomBytes } from 'node:crypto';

/** An unguessable token: 32 random bytes, base64url (43 characters), as links, states and verifiers use. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What a token is stored as: its SHA-256, hex (a leaked table opens no link). */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** The shape randomToken makes: anything else is refused before the database is asked. */
export function isTokenShaped(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{43}$/.test(value);
}

/** RFC 7636 §4.2, S256: BASE64URL(SHA256(ASCII(code_verifier))). */
export function codeChallengeS256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}
