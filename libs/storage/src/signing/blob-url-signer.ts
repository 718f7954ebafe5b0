import { createHmac, timingSafeEqual } from 'node:crypto';

export type SignedMethod = 'PUT' | 'GET';

/** What a signed URL lets its bearer do, for how long. */
export interface BlobGrant {
  method: SignedMethod;
  key: string;
  /** Unix seconds after which the grant is void. */
  expiresAt: number;
  /** PUT: the Content-Type the body must declare. */
  contentType?: string;
  /** PUT: the exact body size in bytes. */
  contentLength?: number;
  /** GET: file name for Content-Disposition. */
  fileName?: string;
}

export type GrantRefusal = 'malformed' | 'bad_signature' | 'expired' | 'wrong_method';

export type GrantCheck = { ok: true; grant: BlobGrant } | { ok: false; reason: GrantRefusal };

interface Wire {
  m: SignedMethod;
  k: string;
  e: number;
  t?: string;
  n?: number;
  f?: string;
}

/**
 * Signs and verifies the tokens of the local driver's URLs, `<base>/<payload>.<signature>`: the payload
 * carries the grant (base64url JSON), the signature is HMAC-SHA256 over a canonical line of method, key,
 * expiry and the limits, so no part of a grant can be changed without the key. Verification compares in
 * constant time and checks expiry and method only after the signature holds.
 */
export class BlobUrlSigner {
  constructor(private readonly key: Buffer) {
    if (key.length < 32) throw new Error('the blob signing key must be at least 32 bytes');
  }

  sign(grant: BlobGrant): string {
    const wire: Wire = { m: grant.method, k: grant.key, e: grant.expiresAt };
    if (grant.contentType !== undefined) wire.t = grant.contentType;
    if (grant.contentLength !== undefined) wire.n = grant.contentLength;
    if (grant.fileName !== undefined) wire.f = grant.fileName;
    const payload = Buffer.from(JSON.stringify(wire)).toString('base64url');
    return `${payload}.${this.mac(wire).toString('base64url')}`;
  }

  verify(token: string, method: SignedMethod, now: Date = new Date()): GrantCheck {
    const [payload, signature, ...rest] = token.split('.');
    if (!payload || !signature || rest.length) return { ok: false, reason: 'malformed' };
    let wire: Wire;
    try {
      wire = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Wire;
    } catch {
      return { ok: false, reason: 'malformed' };
    }
    if (!isWire(wire)) return { ok: false, reason: 'malformed' };
    const given = Buffer.from(signature, 'base64url');
    const expected = this.mac(wire);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return { ok: false, reason: 'bad_signature' };
    }
    if (wire.m !== method) return { ok: false, reason: 'wrong_method' };
    if (Math.floor(now.getTime() / 1000) > wire.e) return { ok: false, reason: 'expired' };
    return {
      ok: true,
      grant: {
        method: wire.m,
        key: wire.k,
        expiresAt: wire.e,
        contentType: wire.t,
        contentLength: wire.n,
        fileName: wire.f,
      },
    };
  }

  private mac(w: Wire): Buffer {
    // One field per line; JSON-encoded strings cannot contain a raw newline, so fields cannot run together.
    const canonical = [
      'vap-blob-v1',
      w.m,
      JSON.stringify(w.k),
      w.e,
      JSON.stringify(w.t ?? null),
      w.n ?? '',
      JSON.stringify(w.f ?? null),
    ].join('\n');
    return createHmac('sha256', this.key).update(canonical).digest();
  }
}

function isWire(v: unknown): v is Wire {
  const w = v as Partial<Wire> | null;
  return (
    !!w &&
    typeof w === 'object' &&
    (w.m === 'PUT' || w.m === 'GET') &&
    typeof w.k === 'string' &&
    Number.isInteger(w.e) &&
    (w.t === undefined || typeof w.t === 'string') &&
    (w.n === undefined || (Number.isInteger(w.n) && w.n >= 0)) &&
    (w.f === undefined || typeof w.f === 'string')
  );
}
