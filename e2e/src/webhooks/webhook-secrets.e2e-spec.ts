// Secret rotation: deliveries switch to the new secret at once, and during the grace window (8 s on the
// e2e platform) also carry X-Webhook-Signature-Previous made with the old one, so a receiver that has not
// updated yet keeps verifying.
import { api } from '../../support';
import { createEndpoint, newPartner, sleep } from './webhook-fixtures';
import { verifySignature, WebhookReceiver } from './webhook-receiver';

describe('webhook secret rotation', () => {
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
  });

  afterAll(async () => {
    await receiver?.close();
  });

  it('signs with the new secret and, until the grace ends, with the previous one alongside', async () => {
    const { key } = await newPartner();
    const e = await createEndpoint(key, { url: receiver.at('rotating') });
    const sendTest = async (n: number) => {
      expect((await api(`/config/webhooks/${e.id}/test`, { method: 'POST', key })).status).toBe(200);
      return (await receiver.waitFor(n, (r) => r.path === '/rotating'))[n - 1];
    };

    const before = await sendTest(1);
    expect(verifySignature(before, e.secret)).toBe(true);
    expect(before.headers['x-webhook-signature-previous']).toBeUndefined();

    const rotated = await api(`/config/webhooks/${e.id}/rotate-secret`, { method: 'POST', key });
    expect(rotated.status).toBe(200);
    const secret: string = rotated.body.data.secret;
    expect(secret).not.toBe(e.secret);
    expect(Date.parse(rotated.body.data.previous_secret_expires_at)).toBeGreaterThan(Date.now());

    const during = await sendTest(2);
    expect(verifySignature(during, secret)).toBe(true);
    expect(verifySignature(during, e.secret)).toBe(false);
    expect(verifySignature(during, e.secret, 'x-webhook-signature-previous')).toBe(true);

    await sleep(Date.parse(rotated.body.data.previous_secret_expires_at) - Date.now() + 200);
    const after = await sendTest(3);
    expect(verifySignature(after, secret)).toBe(true);
    expect(after.headers['x-webhook-signature-previous']).toBeUndefined();
    const listed = (await api('/config/webhooks', { key })).body.data.endpoints[0];
    expect(listed.previous_secret_expires_at).toBeNull();
  }, 30_000);
});
