// Messaging on the sandbox carrier, through the gateway as a partner would: a message sent is delivered to the
// sandbox's handsets (its history shows it delivered), status changes and inbound SMS reach the account's
// webhook endpoints, and another account sees none of it.
import { waitFor } from '@vap/testing';
import { api, createPartner, HttpsReceiver, startHttpsReceiver } from '../../support';

// Tests read response bodies freely; a mistyped read fails the assertion anyway.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const MSG_ID = /^msg_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('messages on the sandbox carrier', () => {
  let receiver: HttpsReceiver;
  let key: string;
  let otherKey: string;
  let sandboxNumber: string;

  beforeAll(async () => {
    receiver = await startHttpsReceiver();
    ({ apiKey: key } = await createPartner({ balance_inr: 100 }));
    ({ apiKey: otherKey } = await createPartner({ balance_inr: 100 }));
    // An empty allowlist takes every event type, the messaging events included.
    const endpoint = await api('/config/webhooks', {
      key,
      body: { label: 'messages', url: `${receiver.url}/hooks`, events: [] },
    });
    expect(endpoint.status).toBe(200);
    const numbers = await api('/phone-numbers', { key });
    expect(numbers.status).toBe(200);
    sandboxNumber = numbers.body.data.phone_numbers.find((n: Any) => n.provider === 'sandbox').number;
  });

  afterAll(async () => {
    await receiver?.close();
  });

  const send = (body: Record<string, unknown>, k = key) => api('/messages', { key: k, body });
  const get = (id: string, k = key) => api(`/messages/${id}`, { key: k });
  const untilStatus = (id: string, status: string) =>
    waitFor(
      async () => {
        const res = await get(id);
        return res.body?.data?.status === status ? res.body.data : undefined;
      },
      { timeoutMs: 30_000, description: `message ${id} ${status}` },
    );
  const eventsOf = (type: string, messageId?: string) =>
    receiver.requests
      .map((r) => r.json as Any)
      .filter((b) => b?.event === type && (!messageId || b.data?.id === messageId));

  it('queues a message from the sandbox number and shows it delivered, each change a webhook event', async () => {
    const res = await send({ to: '+15550004242', body: 'Your table for two is booked for 8 pm.' });
    expect(res.status).toBe(202);
    const queued = res.body.data;
    expect(queued).toEqual({
      id: expect.stringMatching(MSG_ID),
      direction: 'outbound',
      status: 'queued',
      to: '+15550004242',
      from: sandboxNumber,
      body: 'Your table for two is booked for 8 pm.',
      segments: 1,
      carrier: 'sandbox',
      carrier_message_id: null,
      error_code: null,
      error_message: null,
      call_id: null,
      agent_id: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      sent_at: null,
      delivered_at: null,
    });
    const delivered = await untilStatus(queued.id, 'delivered');
    expect(delivered.carrier_message_id).toMatch(/^SM[0-9a-f]{32}$/);
    expect(Date.parse(delivered.sent_at)).not.toBeNaN();
    expect(Date.parse(delivered.delivered_at)).not.toBeNaN();

    await waitFor(() => (eventsOf('message.status.updated', queued.id).length >= 2 ? true : undefined), {
      timeoutMs: 30_000,
      description: 'message.status.updated deliveries',
    });
    const statuses = eventsOf('message.status.updated', queued.id).map((b) => b.data.status);
    expect(statuses).toEqual(expect.arrayContaining(['sent', 'delivered']));

    // The history lists it, newest first, and filters by recipient and direction.
    const list = await api(`/messages?to=%2B15550004242&direction=outbound`, { key });
    expect(list.status).toBe(200);
    expect(list.body.data.messages.map((m: Any) => m.id)).toEqual([queued.id]);
  });

  it('reports a handset the sandbox cannot reach (a number ending in 13) undelivered with the carrier’s code', async () => {
    const res = await send({ to: '+15550000013', body: 'Hello' });
    expect(res.status).toBe(202);
    const undelivered = await untilStatus(res.body.data.id, 'undelivered');
    expect(undelivered.error_code).toBe('30003');
    expect(undelivered.delivered_at).toBeNull();
  });

  it('delivers a simulated inbound SMS to the account’s number as message.received', async () => {
    const res = await api('/sandbox/inbound-messages', {
      key,
      body: { to: sandboxNumber, from: '+918012345678', body: 'YES' },
    });
    expect(res.status).toBe(200);
    const received = res.body.data;
    expect(received).toMatchObject({
      id: expect.stringMatching(MSG_ID),
      direction: 'inbound',
      status: 'received',
      to: sandboxNumber,
      from: '+918012345678',
      body: 'YES',
      carrier: 'sandbox',
      carrier_message_id: expect.stringMatching(/^SM[0-9a-f]{32}$/),
    });
    const event = await waitFor(() => eventsOf('message.received', received.id)[0], {
      timeoutMs: 30_000,
      description: 'message.received delivery',
    });
    expect(event.data).toEqual(received);
    const inbox = await api('/messages?direction=inbound', { key });
    expect(inbox.body.data.messages.map((m: Any) => m.id)).toContain(received.id);
  });

  it('caps messages per number like calls (FREQUENCY_CAP_REACHED, counted among the number’s messages), exactly', async () => {
    const { apiKey } = await createPartner({ balance_inr: 100 });
    const capped = await api('/contact-policy/settings', {
      method: 'PATCH',
      key: apiKey,
      body: { max_attempts_per_day: 1 },
    });
    expect(capped.status).toBe(200);
    // Three at once to one number under a cap of one: exactly one is accepted.
    const results = await Promise.all(
      [1, 2, 3].map((i) => send({ to: '+15550004444', body: `Reminder ${i}` }, apiKey)),
    );
    expect(results.map((r) => `${r.status} ${r.body.error?.code ?? ''}`.trim()).sort()).toEqual([
      '202',
      '429 FREQUENCY_CAP_REACHED',
      '429 FREQUENCY_CAP_REACHED',
    ]);
    const refused = results.find((r) => r.status === 429)!;
    expect(refused.body.error.message).toContain('nothing was sent');
    expect(Date.parse(refused.body.error.retry_at)).toBeGreaterThan(Date.now());
    // Another number has its own count.
    expect((await send({ to: '+15550004445', body: 'Hello' }, apiKey)).status).toBe(202);
    const decisions = await api('/contact-policy/decisions?number=%2B15550004444', { key: apiKey });
    expect(decisions.body.data.decisions).toHaveLength(2);
    expect(decisions.body.data.decisions[0]).toMatchObject({ rule: 'frequency_cap', source: 'message' });
  });

  it('answers 404 for another account’s message and number, and lists none of them to it', async () => {
    const res = await send({ to: '+15550004343', body: 'Private' });
    expect(res.status).toBe(202);
    const other = await get(res.body.data.id, otherKey);
    expect(other.status).toBe(404);
    expect(other.body.error.code).toBe('NOT_FOUND');
    const list = await api('/messages', { key: otherKey });
    expect(list.body.data.messages).toEqual([]);
    const inbound = await api('/sandbox/inbound-messages', {
      key: otherKey,
      body: { to: sandboxNumber, from: '+918012345678', body: 'Hi' },
    });
    expect(inbound.status).toBe(404);
  });

  it.each([
    ['a recipient that is not E.164', { to: '5550001234', body: 'Hi' }, 'to'],
    ['an empty body', { to: '+15550001234', body: '' }, 'body'],
    ['a body over 1600 characters', { to: '+15550001234', body: 'x'.repeat(1601) }, 'body'],
    ['an unknown carrier', { to: '+15550001234', body: 'Hi', carrier: 'carrier_z' }, 'carrier'],
    ['a sender that is not the account’s', { to: '+15550001234', body: 'Hi', from: '+15550009999' }, 'from'],
    [
      'a carrier the account has no connection on',
      { to: '+15550001234', body: 'Hi', carrier: 'carrier_a' },
      'carrier',
    ],
  ])('refuses %s with 400 VALIDATION_ERROR', async (_label, body, field) => {
    const res = await send(body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.message).toContain(field);
  });

  it('answers 404 for an unknown or malformed message id', async () => {
    expect((await get('msg_00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await get('not-a-message')).status).toBe(404);
  });
});
