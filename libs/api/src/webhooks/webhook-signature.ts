import { createHmac, timingSafeEqual } from 'node:crypto';

export const WEBHOOK_HEADERS = {
  signature: 'X-Webhook-Signature',
  /** During a rotation's grace window: the same signature made with the previous secret. */
  previousSignature: 'X-Webhook-Signature-Previous',
  timestamp: 'X-Webhook-Timestamp',
  /** The delivery id: the same on every attempt of one delivery, so receivers can drop duplicates. */
  id: 'X-Webhook-Id',
  event: 'X-Webhook-Event',
} as const;

/** `sha256=` + hex HMAC-SHA256, keyed with the endpoint's secret, of `<timestamp>.<raw body>`. */
export function webhookSignature(secret: string, timestamp: string, rawBody: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex')}`;
}

/**
 * What a receiver does: recompute from the raw body, compare in constant time, and refuse a timestamp more
 * than `toleranceMs` (default 5 minutes) from now.
 */
export function verifyWebhookSignature(
  secret: string,
  header: string | undefined,
  timestamp: string | undefined,
  rawBody: string,
  options: { toleranceMs?: number; now?: number } = {},
): boolean {
  if (!header || !timestamp) return false;
  const sent = Date.parse(timestamp);
  if (Number.isNaN(sent)) return false;
  if (Math.abs((options.now ?? Date.now()) - sent) > (options.toleranceMs ?? 5 * 60_000)) return false;
  const expected = Buffer.from(webhookSignature(secret, timestamp, rawBody));
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
