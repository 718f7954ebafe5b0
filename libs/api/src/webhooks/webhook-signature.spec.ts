import { createHmac } from 'node:crypto';
import { verifyWebhookSignature, webhookSignature } from './webhook-signature';

const secret = 'whsec_test-secret';
const body = '{"event":"call.status.updated","timestamp":"2026-01-01T00:00:00.000Z","data":{}}';
const timestamp = '2026-01-01T00:00:01.000Z';
const now = Date.parse(timestamp);

describe('webhookSignature', () => {
  it('is sha256= and the hex HMAC-SHA256 of "<timestamp>.<raw body>" keyed with the whole secret', () => {
    const expected = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
    expect(webhookSignature(secret, timestamp, body)).toBe(`sha256=${expected}`);
  });

  it('changes with the timestamp, the body and the secret', () => {
    const base = webhookSignature(secret, timestamp, body);
    expect(webhookSignature(secret, '2026-01-01T00:00:02.000Z', body)).not.toBe(base);
    expect(webhookSignature(secret, timestamp, `${body} `)).not.toBe(base);
    expect(webhookSignature(`${secret}x`, timestamp, body)).not.toBe(base);
  });
});

describe('verifyWebhookSignature', () => {
  const header = webhookSignature(secret, timestamp, body);

  it('accepts the signature of the raw body within the window', () => {
    expect(verifyWebhookSignature(secret, header, timestamp, body, { now })).toBe(true);
    expect(verifyWebhookSignature(secret, header, timestamp, body, { now: now + 4 * 60_000 })).toBe(true);
  });

  it('refuses another body, secret or timestamp, a stale timestamp, and missing headers', () => {
    expect(verifyWebhookSignature(secret, header, timestamp, body.replace('{}', '{"a":1}'), { now })).toBe(
      false,
    );
    expect(verifyWebhookSignature('whsec_other', header, timestamp, body, { now })).toBe(false);
    expect(verifyWebhookSignature(secret, header, '2026-01-01T00:00:02.000Z', body, { now })).toBe(false);
    expect(verifyWebhookSignature(secret, header, timestamp, body, { now: now + 6 * 60_000 })).toBe(false);
    expect(verifyWebhookSignature(secret, undefined, timestamp, body, { now })).toBe(false);
    expect(verifyWebhookSignature(secret, header, 'yesterday', body, { now })).toBe(false);
    expect(verifyWebhookSignature(secret, header.slice(0, -1), timestamp, body, { now })).toBe(false);
  });
});
