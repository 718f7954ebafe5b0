import { createHash, randomBytes } from 'node:crypto';

/** A random secret for a cookie or a one-time link: 32 bytes, base64url, with a prefix naming what it is. */
export function newToken(prefix: string): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

/** What is stored of a token: its SHA-256 (the token itself has 256 bits of entropy, so no salt is needed). */
export function tokenHash(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

export const SESSION_COOKIE = 'vap_console';
export const INVITATION_PREFIX = 'cinv_';
export const RESET_PREFIX = 'crst_';
export const SESSION_PREFIX = 'cses_';

/** The value of one cookie in a Cookie header, or null. */
export function cookieValue(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim() || null;
  }
  return null;
}
