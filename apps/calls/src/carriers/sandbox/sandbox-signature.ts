import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature';
export const SANDBOX_TIMESTAMP_HEADER = 'x-sandbox-timestamp';
/** Callbacks older or newer than this are refused, so a captured one cannot be replayed later. */
export const SANDBOX_SIGNATURE_TOLERANCE_MS = 5 * 60 * 1000;

/**
 * The sandbox carrier signs like a real one: `v1=` + hex HMAC-SHA256 over `<timestamp>.<url>.<raw body>`,
 * where url is the exact callback URL it was given and timestamp the X-Sandbox-Timestamp header (Unix ms).
 */
export function signSandboxCallback(
  key: Buffer,
  timestamp: string,
  url: string,
  body: Buffer | string,
): string {
  return `v1=${createHmac('sha256', key).update(`${timestamp}.${url}.`).update(body).digest('hex')}`;
}

export function verifySandboxCallback(
  key: Buffer,
  headers: Record<string, string>,
  url: string,
  body: Buffer,
  now = Date.now(),
): boolean {
  const timestamp = headers[SANDBOX_TIMESTAMP_HEADER];
  const given = headers[SANDBOX_SIGNATURE_HEADER];
  if (!timestamp || !given || !/^\d{1,15}$/.test(timestamp)) return false;
  if (Math.abs(now - Number(timestamp)) > SANDBOX_SIGNATURE_TOLERANCE_MS) return false;
  const expected = Buffer.from(signSandboxCallback(key, timestamp, url, body));
  const presented = Buffer.from(given);
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}

/**
 * The HMAC key: from SANDBOX_CALLBACK_SECRET, else derived from SECRETS_KEY (which is a fixed key only
 * with NODE_ENV=development), so there is no constant fallback.
 */
export function sandboxSigningKey(secret: string | undefined, secretsKey: string | undefined): Buffer {
  const source = secret || secretsKey;
  if (!source) throw new Error('SANDBOX_CALLBACK_SECRET or SECRETS_KEY is required');
  return Buffer.from(hkdfSync('sha256', source, 'vap-sandbox-carrier', 'callback signatures v1', 32));
}
