import { createHmac } from 'node:crypto';
import { isValidWebhook, verifyWebhook, webhookSignature, WebhookVerificationError } from './webhooks';

// Vectors made with the platform's own signing code (webhookSignature of libs/api, which the webhooks
// service's delivery sender uses), so the verifier is held to what deliveries really carry.
const TIMESTAMP = '2026-03-01T10:00:00.000Z';
const BODY =
  '{"event":"call.status.updated","timestamp":"2026-03-01T10:00:00.000Z","data":{"call_id":"6f1c2b8e-2a51-4a0e-9d36-3c1f0f4b7a10","status":"completed","note":"Grüße ✓"}}';
const CURRENT = 'whsec_current_0123456789abcdef';
const PREVIOUS = 'whsec_previous_fedcba9876543210';
const SIGNED_CURRENT = 'sha256=2653d156378397cecdf853dc3c65e4bb8c8eed3ef459584f5cca591a89f756fa';
const SIGNED_PREVIOUS = 'sha256=ccb784dcb8ccb894b6b8e205938a968ca49492f93be0d5cf6c0dda5aa61716a9';
const NOW = Date.parse(TIMESTAMP) + 30_000;

const headers = (extra: Record<string, string> = {}) => ({
  'content-type': 'application/json',
  'x-webhook-signature': SIGNED_CURRENT,
  'x-webhook-timestamp': TIMESTAMP,
  'x-webhook-id': 'dlv_1',
  'x-webhook-event': 'call.status.updated',
  ...extra,
});

function failure(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (err) {
    if (err instanceof WebhookVerificationError) return err.reason;
    throw err;
  }
}

describe('webhook signatures', () => {
  it('computes the platform signature: sha256=hex HMAC-SHA256 of "<timestamp>.<raw body>"', () => {
    expect(webhookSignature(CURRENT, TIMESTAMP, BODY)).toBe(SIGNED_CURRENT);
    expect(webhookSignature(PREVIOUS, TIMESTAMP, Buffer.from(BODY))).toBe(SIGNED_PREVIOUS);
    // The contract's recipe, recomputed with node:crypto.
    const recipe = `sha256=${createHmac('sha256', CURRENT).update(`${TIMESTAMP}.${BODY}`).digest('hex')}`;
    expect(recipe).toBe(SIGNED_CURRENT);
  });

  it('accepts a delivery over its raw body (string or bytes) and answers the parsed event', () => {
    const verified = verifyWebhook(Buffer.from(BODY, 'utf8'), headers(), { secrets: CURRENT, now: NOW });
    expect(verified).toEqual({
      id: 'dlv_1',
      event: 'call.status.updated',
      timestamp: TIMESTAMP,
      payload: JSON.parse(BODY),
    });
    expect(isValidWebhook(BODY, headers(), { secrets: [CURRENT], now: NOW })).toBe(true);
  });

  it('reads the headers from a Headers object and from mixed-case names', () => {
    const h = new Headers(headers());
    expect(isValidWebhook(BODY, h, { secrets: CURRENT, now: NOW })).toBe(true);
    const mixed = { 'X-Webhook-Signature': SIGNED_CURRENT, 'X-Webhook-Timestamp': TIMESTAMP };
    expect(isValidWebhook(BODY, mixed, { secrets: CURRENT, now: NOW })).toBe(true);
  });

  it('refuses a body changed by a single byte, a wrong secret, or a re-serialised body', () => {
    expect(
      failure(() =>
        verifyWebhook(BODY.replace('completed', 'completes'), headers(), { secrets: CURRENT, now: NOW }),
      ),
    ).toBe('bad_signature');
    expect(failure(() => verifyWebhook(BODY, headers(), { secrets: 'whsec_other', now: NOW }))).toBe(
      'bad_signature',
    );
    const reserialised = JSON.stringify(JSON.parse(BODY), null, 2);
    expect(failure(() => verifyWebhook(reserialised, headers(), { secrets: CURRENT, now: NOW }))).toBe(
      'bad_signature',
    );
    // Same length, other hex digit: the comparison is over the whole value.
    const tampered = SIGNED_CURRENT.slice(0, -1) + (SIGNED_CURRENT.endsWith('a') ? 'b' : 'a');
    expect(
      failure(() =>
        verifyWebhook(BODY, headers({ 'x-webhook-signature': tampered }), { secrets: CURRENT, now: NOW }),
      ),
    ).toBe('bad_signature');
  });

  it('refuses a timestamp outside the tolerance (5 minutes by default), either side of now', () => {
    const sent = Date.parse(TIMESTAMP);
    expect(
      failure(() => verifyWebhook(BODY, headers(), { secrets: CURRENT, now: sent + 5 * 60_000 })),
    ).toBeUndefined();
    expect(
      failure(() => verifyWebhook(BODY, headers(), { secrets: CURRENT, now: sent + 5 * 60_000 + 1 })),
    ).toBe('timestamp_out_of_tolerance');
    expect(
      failure(() => verifyWebhook(BODY, headers(), { secrets: CURRENT, now: sent - 5 * 60_000 - 1 })),
    ).toBe('timestamp_out_of_tolerance');
    expect(
      failure(() =>
        verifyWebhook(BODY, headers(), { secrets: CURRENT, now: sent + 60_000, toleranceMs: 10_000 }),
      ),
    ).toBe('timestamp_out_of_tolerance');
  });

  it('refuses a delivery without its headers or with a timestamp that is no time', () => {
    const { 'x-webhook-signature': _s, ...unsigned } = headers();
    expect(failure(() => verifyWebhook(BODY, unsigned, { secrets: CURRENT, now: NOW }))).toBe(
      'missing_headers',
    );
    const { 'x-webhook-timestamp': _t, ...undated } = headers();
    expect(failure(() => verifyWebhook(BODY, undated, { secrets: CURRENT, now: NOW }))).toBe(
      'missing_headers',
    );
    expect(
      failure(() =>
        verifyWebhook(BODY, headers({ 'x-webhook-timestamp': 'yesterday' }), { secrets: CURRENT, now: NOW }),
      ),
    ).toBe('bad_timestamp');
  });

  describe('during a secret rotation', () => {
    // While the grace window lasts, the platform signs with the new secret and adds the previous one's signature.
    const rotating = headers({ 'x-webhook-signature-previous': SIGNED_PREVIOUS });

    it('accepts a receiver that already has the new secret, or still only the previous one', () => {
      expect(isValidWebhook(BODY, rotating, { secrets: [CURRENT], now: NOW })).toBe(true);
      expect(isValidWebhook(BODY, rotating, { secrets: [PREVIOUS], now: NOW })).toBe(true);
    });

    it('accepts a receiver holding both secrets, whichever one the delivery was signed with', () => {
      const secrets = [CURRENT, PREVIOUS];
      expect(isValidWebhook(BODY, rotating, { secrets, now: NOW })).toBe(true);
      const oldOnly = headers({ 'x-webhook-signature': SIGNED_PREVIOUS });
      expect(isValidWebhook(BODY, oldOnly, { secrets, now: NOW })).toBe(true);
    });

    it('refuses when none of the secrets signed it', () => {
      expect(isValidWebhook(BODY, rotating, { secrets: ['whsec_a', 'whsec_b'], now: NOW })).toBe(false);
      expect(isValidWebhook(BODY, rotating, { secrets: [], now: NOW })).toBe(false);
    });
  });
});
