// SMS on carrier_a and carrier_b through the gateway: a platform of its own whose carrier base URLs point at the
// local fake carriers, which speak the carriers' message APIs (see e2e/support/fake-carrier-messages.ts for the
// API versions followed). Sending, delivery status callbacks (signed like call callbacks; unsigned or wrongly
// signed ones refused), carrier refusals, the contact policy, and inbound SMS reaching the account's webhooks.
import { waitFor } from '@vap/testing';
import {
  adminApi,
  api,
  HttpsReceiver,
  OwnPlatform,
  startHttpsReceiver,
  startOwnPlatform,
} from '../../support';
import { CarrierAccount, FakeCarriers, startFakeCarriers } from '../../support/fake-carriers';

// Tests read response bodies freely; a mistyped read fails the assertion anyway.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const A: CarrierAccount = {
  provider: 'carrier_a',
  id: 'MAFAKESMSACCOUNT0001',
  token: 'fake-carrier-a-sms-token',
};
const B: CarrierAccount = {
  provider: 'carrier_b',
  id: 'ACfake000000000000000000000000sms1',
  token: 'fake-carrier-b-sms-token',
};
const A_FROM = '+919812300071';
const B_FROM = '+14155560071';

describe('messages on carrier_a and carrier_b', () => {
  let fake: FakeCarriers;
  let own: OwnPlatform;
  let receiver: HttpsReceiver;
  let gateway: string;
  let key: string;
  let otherKey: string;
  let inboundSmsB: string;
  let inboundSmsA: string;

  const call = (path: string, options: { method?: string; body?: unknown } = {}, k = key) =>
    api(path, { ...options, key: k, baseUrl: gateway });
  const send = (body: Record<string, unknown>) => call('/messages', { body });
  const get = (id: string) => call(`/messages/${id}`);
  const untilStatus = (id: string, status: string) =>
    waitFor(
      async () => {
        const res = await get(id);
        return res.body?.data?.status === status ? res.body.data : undefined;
      },
      { timeoutMs: 20_000, description: `message ${id} ${status}` },
    );
  const eventsOf = (type: string, messageId: string) =>
    receiver.requests.map((r) => r.json as Any).filter((b) => b?.event === type && b.data?.id === messageId);

  beforeAll(async () => {
    fake = await startFakeCarriers();
    fake.addAccount(A);
    fake.addAccount(B);
    receiver = await startHttpsReceiver();
    own = await startOwnPlatform({
      name: 'messages',
      services: ['agents', 'calls', 'webhooks'],
      env: {
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        NODE_EXTRA_CA_CERTS: process.env.E2E_TLS_CA,
        CARRIER_A_BASE_URL: fake.url,
        CARRIER_B_BASE_URL: fake.url,
      },
    });
    gateway = own.platform.gatewayUrl;
    const partner = async (name: string) => {
      const created = await adminApi('/partners', {
        method: 'POST',
        baseUrl: gateway,
        body: { name, balance_inr: 100 },
      });
      expect(created.status).toBe(200);
      return created.body.data.api_key as string;
    };
    key = await partner('SMS Co');
    otherKey = await partner('SMS Other Co');
    const putA = await call('/config/telephony/carrier_a', {
      method: 'PUT',
      body: { auth_id: A.id, auth_token: A.token, from_number: A_FROM },
    });
    expect(putA.status).toBe(200);
    const putB = await call('/config/telephony/carrier_b', {
      method: 'PUT',
      body: { account_sid: B.id, auth_token: B.token, from_number: B_FROM },
    });
    expect(putB.status).toBe(200);
    const endpoint = await call('/config/webhooks', {
      body: { label: 'sms', url: `${receiver.url}/hooks`, events: [] },
    });
    expect(endpoint.status).toBe(200);
    // A connection's numbers send inbound SMS to the message URL its resource shows.
    const connections = (await call('/telephony-connections')).body.data.telephony_connections as Any[];
    const smsUrlOf = (provider: string) => connections.find((c) => c.provider === provider).inbound_sms_url;
    inboundSmsB = smsUrlOf('carrier_b');
    inboundSmsA = smsUrlOf('carrier_a');
  }, 120_000);

  afterAll(async () => {
    await own?.stop();
    await fake?.close();
    await receiver?.close();
  });

  it('sends on carrier_b (Messages.json) and a signed delivery callback moves the message on, as webhook events', async () => {
    const res = await send({ to: '+14155551001', body: 'Your code is 4821.', carrier: 'carrier_b' });
    expect(res.status).toBe(202);
    const message = res.body.data;
    expect(message).toMatchObject({
      status: 'queued',
      from: B_FROM,
      carrier: 'carrier_b',
      direction: 'outbound',
    });

    const sms = await fake.waitForMessage('+14155551001');
    expect(sms).toMatchObject({ provider: 'carrier_b', from: B_FROM, body: 'Your code is 4821.' });
    expect(sms.statusUrl).toBe(`${gateway}/callbacks/messages/carrier_b/${message.id}/status`);
    const sent = await untilStatus(message.id, 'sent');
    expect(sent.carrier_message_id).toBe(sms.id);

    // Carrier statuses the record does not show (sending) change nothing.
    expect((await fake.messageStatus(sms, 'sending')).status).toBe(200);
    expect((await fake.messageStatus(sms, 'delivered')).status).toBe(200);
    const delivered = await untilStatus(message.id, 'delivered');
    expect(Date.parse(delivered.delivered_at)).not.toBeNaN();
    // A late or repeated report never moves a message back.
    expect((await fake.messageStatus(sms, 'sent')).status).toBe(200);
    expect((await get(message.id)).body.data.status).toBe('delivered');

    await waitFor(() => (eventsOf('message.status.updated', message.id).length >= 2 ? true : undefined), {
      timeoutMs: 30_000,
      description: 'message.status.updated deliveries',
    });
    expect(eventsOf('message.status.updated', message.id).map((b) => b.data.status)).toEqual(
      expect.arrayContaining(['sent', 'delivered']),
    );
  });

  it('refuses a status callback that is unsigned or signed with another token (403), and changes nothing', async () => {
    const res = await send({ to: '+14155551002', body: 'Hello', carrier: 'carrier_b' });
    const sms = await fake.waitForMessage('+14155551002');
    await untilStatus(res.body.data.id, 'sent');
    expect((await fake.messageStatus(sms, 'failed', { sign: 'none', errorCode: '30008' })).status).toBe(403);
    expect((await fake.messageStatus(sms, 'failed', { sign: 'bad', errorCode: '30008' })).status).toBe(403);
    expect((await get(res.body.data.id)).body.data.status).toBe('sent');
    // A callback for a message the URL does not name is unknown.
    const forged = await fetch(
      `${gateway}/callbacks/messages/carrier_b/msg_00000000-0000-4000-8000-000000000000/status`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'MessageSid=SMx&MessageStatus=delivered',
      },
    );
    expect(forged.status).toBe(404);
  });

  it('sends on carrier_a (Message/, JSON) from the given number; an undelivered report keeps the carrier’s code', async () => {
    const res = await send({ to: '+14155551003', body: 'Your parcel is out for delivery.', from: A_FROM });
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ from: A_FROM, carrier: 'carrier_a' });
    const sms = await fake.waitForMessage('+14155551003');
    expect(sms).toMatchObject({
      provider: 'carrier_a',
      from: A_FROM,
      body: 'Your parcel is out for delivery.',
    });
    const sent = await untilStatus(res.body.data.id, 'sent');
    expect(sent.carrier_message_id).toBe(sms.id);
    expect((await fake.messageStatus(sms, 'undelivered', { errorCode: '200' })).status).toBe(200);
    const undelivered = await untilStatus(res.body.data.id, 'undelivered');
    expect(undelivered.error_code).toBe('200');
    expect(undelivered.error_message).toContain('undelivered');
  });

  it('fails a message the carrier refuses, with the reason', async () => {
    fake.failNext(400);
    const res = await send({ to: '+14155551004', body: 'Hello', carrier: 'carrier_b' });
    expect(res.status).toBe(202);
    const failed = await untilStatus(res.body.data.id, 'failed');
    expect(failed.error_code).toBe('carrier_refused');
    expect(failed.error_message).toContain('HTTP 400');
    expect(failed.carrier_message_id).toBeNull();
  });

  it('refuses a number on the do-not-call list with 409 DO_NOT_CALL, sends nothing and logs the decision', async () => {
    const listed = await call('/do-not-call', { body: { number: '+14155551005', reason: 'opt_out' } });
    expect(listed.status).toBe(200);
    const res = await send({ to: '+14155551005', body: 'Hello', carrier: 'carrier_b' });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('DO_NOT_CALL');
    expect(res.body.error.message).toContain('nothing was sent');
    const decisions = await call('/contact-policy/decisions?number=%2B14155551005');
    expect(decisions.body.data.decisions[0]).toMatchObject({
      rule: 'do_not_call',
      outcome: 'refused',
      source: 'message',
    });
    expect(fake.messages.some((m) => m.to === '+14155551005')).toBe(false);
    const history = await call('/messages?to=%2B14155551005');
    expect(history.body.data.messages).toEqual([]);
  });

  it.each([
    ['carrier_b', () => inboundSmsB, B, B_FROM],
    ['carrier_a', () => inboundSmsA, A, A_FROM],
  ] as const)(
    'records an inbound SMS on a %s number once and announces it as message.received',
    async (provider, urlOf, account, number) => {
      const id = provider === 'carrier_b' ? `SM${'a'.repeat(32)}` : '6f1c2e0a-1111-4222-8333-444455556666';
      const sms = { id, from: '+919800000071', to: number, body: `Reschedule please (${provider})` };
      const first = await fake.inboundSms(account, urlOf(), sms);
      expect(first.status).toBe(200);
      expect(first.body).toContain('<Response>');
      // The carrier repeats its webhook: the message is recorded once.
      expect((await fake.inboundSms(account, urlOf(), sms)).status).toBe(200);

      const inbox = await call(`/messages?direction=inbound&from=%2B919800000071`);
      const mine = (inbox.body.data.messages as Any[]).filter((m) => m.carrier === provider);
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({
        direction: 'inbound',
        status: 'received',
        from: '+919800000071',
        to: number,
        body: `Reschedule please (${provider})`,
        carrier_message_id: id,
      });
      const event = await waitFor(() => eventsOf('message.received', mine[0].id)[0], {
        timeoutMs: 30_000,
        description: 'message.received delivery',
      });
      expect(event.data).toMatchObject({ id: mine[0].id, direction: 'inbound', body: mine[0].body });
      expect(eventsOf('message.received', mine[0].id)).toHaveLength(1);
    },
  );

  it('refuses an inbound SMS that is unsigned or wrongly signed (403) and records nothing', async () => {
    const sms = { from: '+919800000072', to: B_FROM, body: 'Forged' };
    expect((await fake.inboundSms(B, inboundSmsB, sms, 'none')).status).toBe(403);
    expect((await fake.inboundSms(B, inboundSmsB, sms, 'bad')).status).toBe(403);
    const inbox = await call(`/messages?from=%2B919800000072`);
    expect(inbox.body.data.messages).toEqual([]);
  });

  it('answers 404 for another account’s message', async () => {
    const res = await send({ to: '+14155551006', body: 'Mine', carrier: 'carrier_b' });
    expect(res.status).toBe(202);
    const other = await call(`/messages/${res.body.data.id}`, {}, otherKey);
    expect(other.status).toBe(404);
    expect(other.body.error.code).toBe('NOT_FOUND');
  });
});
