// Short-lived signed tokens in stream URLs: the media plane accepts a carrier's WebSocket only for a call the
// platform answered, only before the token expires, and only once.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** HMAC-SHA256 keys shorter than the hash add no strength and usually mean a misconfigured secret. */
export const STREAM_TOKEN_MIN_KEY_BYTES = 32;
// Binds signatures to this use, so an HMAC the same key makes elsewhere never passes as a stream token.
const SIGNING_CONTEXT = 'vap.media-stream-token.v1.';
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const SIGNATURE_BYTES = 32;

export interface StreamTokenClaims {
  callId: string;
  /** Expiry, epoch milliseconds. */
  exp: number;
  /** Random per token, for replay detection. */
  nonce: string;
}

export type StreamTokenRejection = 'malformed' | 'bad_signature' | 'expired';

export type StreamTokenVerification =
  | { ok: true; claims: StreamTokenClaims }
  /** An expired token's claims are authentic (its signature held): they say whose token lapsed. */
  | { ok: false; reason: 'expired'; claims: StreamTokenClaims }
  | { ok: false; reason: Exclude<StreamTokenRejection, 'expired'> };

export interface IssueStreamTokenInput {
  callId: string;
  ttlMs: number;
  /** Epoch milliseconds. */
  now: number;
}

/** A compact url-safe token: base64url(JSON claims) "." base64url(HMAC-SHA256). */
export function issueStreamToken(input: IssueStreamTokenInput, key: Buffer | string): string {
  if (!input.callId) throw new RangeError('callId is required');
  if (!Number.isFinite(input.ttlMs) || input.ttlMs <= 0) throw new RangeError('ttlMs must be positive');
  const claims: StreamTokenClaims = {
    callId: input.callId,
    exp: Math.floor(input.now + input.ttlMs),
    nonce: randomBytes(16).toString('base64url'),
  };
  const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${body}.${sign(body, key).toString('base64url')}`;
}

/** Checks shape, then signature (in constant time), then expiry; claims are only read once the signature holds. */
export function verifyStreamToken(token: string, key: Buffer | string, now: number): StreamTokenVerification {
  const keyBytes = checkedKey(key);
  const parts = token.split('.');
  if (parts.length !== 2 || !parts.every((part) => BASE64URL.test(part))) return rejected('malformed');
  const [body, signature] = parts;
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== SIGNATURE_BYTES) return rejected('malformed');
  if (!timingSafeEqual(given, sign(body, keyBytes))) return rejected('bad_signature');
  const claims = readClaims(body);
  if (!claims) return rejected('malformed');
  if (now >= claims.exp) return { ok: false, reason: 'expired', claims };
  return { ok: true, claims };
}

function sign(body: string, key: Buffer | string): Buffer {
  return createHmac('sha256', checkedKey(key)).update(SIGNING_CONTEXT).update(body).digest();
}

function checkedKey(key: Buffer | string): Buffer {
  const bytes = typeof key === 'string' ? Buffer.from(key) : key;
  if (bytes.length < STREAM_TOKEN_MIN_KEY_BYTES) {
    throw new RangeError(`stream token key must be at least ${STREAM_TOKEN_MIN_KEY_BYTES} bytes`);
  }
  return bytes;
}

function readClaims(body: string): StreamTokenClaims | null {
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (typeof claims !== 'object' || claims === null) return null;
  const { callId, exp, nonce } = claims as Record<string, unknown>;
  if (typeof callId !== 'string' || !callId) return null;
  if (typeof exp !== 'number' || !Number.isSafeInteger(exp)) return null;
  if (typeof nonce !== 'string' || !nonce) return null;
  return { callId, exp, nonce };
}

function rejected(reason: Exclude<StreamTokenRejection, 'expired'>): StreamTokenVerification {
  return { ok: false, reason };
}

/**
 * Remembers the nonces of tokens already used, until they expire, so a captured stream URL cannot open a
 * second socket. The production guard must be shared by every replica of the media plane (a carrier may reach
 * any of them); the in-memory one below only suits a single process and tests.
 */
export interface ReplayGuard {
  /** True the first time a nonce is claimed before `exp` (epoch ms); false for every later claim. */
  claim(nonce: string, exp: number, now: number): Promise<boolean>;
}

/** Single-process ReplayGuard; forgets a nonce once its token has expired, since expiry already refuses it. */
export class InMemoryReplayGuard implements ReplayGuard {
  private readonly seen = new Map<string, number>();

  async claim(nonce: string, exp: number, now: number): Promise<boolean> {
    this.forgetExpired(now);
    if (this.seen.has(nonce)) return false;
    this.seen.set(nonce, exp);
    return true;
  }

  /** How many nonces are held, for tests and metrics. */
  get size(): number {
    return this.seen.size;
  }

  private forgetExpired(now: number): void {
    for (const [nonce, exp] of this.seen) {
      if (exp <= now) this.seen.delete(nonce);
    }
  }
}

export type StreamTokenAdmission =
  { ok: true; callId: string } | { ok: false; reason: StreamTokenRejection | 'replayed' };

/** Verifies a token and claims its nonce: what the media plane checks before accepting any audio. */
export async function admitStreamToken(
  token: string,
  key: Buffer | string,
  now: number,
  guard: ReplayGuard,
): Promise<StreamTokenAdmission> {
  const verified = verifyStreamToken(token, key, now);
  if (!verified.ok) return { ok: false, reason: verified.reason };
  const { callId, nonce, exp } = verified.claims;
  return (await guard.claim(nonce, exp, now)) ? { ok: true, callId } : { ok: false, reason: 'replayed' };
}
