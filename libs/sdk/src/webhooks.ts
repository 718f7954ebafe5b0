import { createHmac, timingSafeEqual } from 'node:crypto';

/** The headers of a webhook request (docs/api.md, Webhooks). */
export const WEBHOOK_HEADERS = {
  signature: 'x-webhook-signature',
  /** During a rotation's grace window: the same signature made with the previous secret. */
  previousSignature: 'x-webhook-signature-previous',
  timestamp: 'x-webhook-timestamp',
  id: 'x-webhook-id',
  event: 'x-webhook-event',
} as const;

/** The contract's receiver-side tolerance: a timestamp more than 5 minutes from now is refused. */
export const DEFAULT_WEBHOOK_TOLERANCE_MS = 5 * 60_000;

export type WebhookHeaders =
  Headers | Record<string, string | readonly string[] | undefined> | ReadonlyMap<string, string>;

export interface VerifyWebhookOptions {
  /**
   * The endpoint's secret (`whsec_...`), or several: during a rotation, the new one and the previous one.
   * A delivery signed with any of them is accepted.
   */
  secrets: string | readonly string[];
  toleranceMs?: number;
  /** The receiver's clock (tests). */
  now?: Date | number;
}

export interface VerifiedWebhook<T = unknown> {
  /** The delivery id (X-Webhook-Id), the same on every retry of one delivery: drop duplicates by it. */
  id: string | undefined;
  event: string | undefined;
  timestamp: string;
  payload: T;
}

export type WebhookFailure =
  'missing_headers' | 'bad_timestamp' | 'timestamp_out_of_tolerance' | 'bad_signature';

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  constructor(
    readonly reason: WebhookFailure,
    message: string,
  ) {
    super(message);
  }
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') {
    return (headers as Headers | ReadonlyMap<string, string>).get(name) ?? undefined;
  }
  const record = headers as Record<string, string | readonly string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value[0] : (value as string | undefined);
}

/** `sha256=` + hex HMAC-SHA256, keyed with the whole secret string, of `<timestamp>.<raw body>`. */
export function webhookSignature(secret: string, timestamp: string, rawBody: string | Uint8Array): string {
  const hmac = createHmac('sha256', secret).update(`${timestamp}.`);
  hmac.update(typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody);
  return `sha256=${hmac.digest('hex')}`;
}

function sameSignature(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  // timingSafeEqual needs equal lengths; the length of a well-formed signature is public anyway.
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Checks a webhook delivery over its raw body (the exact bytes received, before any JSON parsing): the
 * timestamp within the tolerance of now, then the signature (X-Webhook-Signature, and
 * X-Webhook-Signature-Previous sent during a rotation) against each secret, compared in constant time.
 * Answers the parsed delivery, or throws a WebhookVerificationError saying why not.
 */
export function verifyWebhook<T = unknown>(
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  options: VerifyWebhookOptions,
): VerifiedWebhook<T> {
  const timestamp = header(headers, WEBHOOK_HEADERS.timestamp);
  const signatures = [
    header(headers, WEBHOOK_HEADERS.signature),
    header(headers, WEBHOOK_HEADERS.previousSignature),
  ].filter((s): s is string => !!s);
  if (!timestamp || signatures.length === 0) {
    throw new WebhookVerificationError(
      'missing_headers',
      'X-Webhook-Signature or X-Webhook-Timestamp is missing',
    );
  }
  const sent = Date.parse(timestamp);
  if (Number.isNaN(sent)) {
    throw new WebhookVerificationError('bad_timestamp', `X-Webhook-Timestamp is not a time: ${timestamp}`);
  }
  const now = options.now === undefined ? Date.now() : new Date(options.now).getTime();
  const tolerance = options.toleranceMs ?? DEFAULT_WEBHOOK_TOLERANCE_MS;
  if (Math.abs(now - sent) > tolerance) {
    throw new WebhookVerificationError(
      'timestamp_out_of_tolerance',
      `X-Webhook-Timestamp ${timestamp} is more than ${tolerance} ms from now`,
    );
  }
  const secrets = typeof options.secrets === 'string' ? [options.secrets] : options.secrets;
  let matched = false;
  // Every pair is compared (no early exit), so the time taken does not tell which secret matched.
  for (const secret of secrets) {
    const expected = webhookSignature(secret, timestamp, rawBody);
    for (const given of signatures) matched = sameSignature(given, expected) || matched;
  }
  if (!matched) throw new WebhookVerificationError('bad_signature', 'no secret matches the signature');
  const text = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8');
  return {
    id: header(headers, WEBHOOK_HEADERS.id),
    event: header(headers, WEBHOOK_HEADERS.event),
    timestamp,
    payload: JSON.parse(text) as T,
  };
}

/** verifyWebhook as a yes/no. */
export function isValidWebhook(
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  options: VerifyWebhookOptions,
) {
  try {
    verifyWebhook(rawBody, headers, options);
    return true;
  } catch (err) {
    if (err instanceof WebhookVerificationError) return false;
    throw err;
  }
}
