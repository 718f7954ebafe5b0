// One call's status events reach an endpoint in the order they happened, whatever the retries: a sandbox
// call's first status (pending) fails twice, and ringing, in_progress and completed wait for its retries
// (the e2e platform retries after 1s, then 1s) instead of overtaking it; session.completed comes last.
import { api } from '../../support';
import { createAgent, createEndpoint, newPartner } from './webhook-fixtures';
import { WebhookReceiver, WebhookRequest } from './webhook-receiver';

describe('webhook order per endpoint and call', () => {
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
  });

  afterAll(async () => {
    await receiver?.close();
  });

  it('holds a call’s later statuses while its first one is retried, then sends them in order', async () => {
    const { key } = await newPartner();
    const endpoint = await createEndpoint(key, { url: receiver.at('order') });
    // pending's first two attempts fail: it succeeds on the second retry, about 2s after the first.
    let failures = 0;
    receiver.answer = (req) => {
      const first = req.json?.event === 'call.status.updated' && req.json.data.status === 'pending';
      return req.path === '/order' && first && failures++ < 2 ? { status: 500 } : {};
    };

    const agent = await createAgent(key);
    const start = await api('/calls/start', {
      key,
      body: { agent_id: agent.id, to_number: '+919876500342' },
    });
    expect(start.status).toBe(200);
    const callId = start.body.data.call_id;
    const ofCall = (r: WebhookRequest) => r.path === '/order' && r.json?.data?.call_id === callId;

    await receiver.waitFor(1, (r) => ofCall(r) && r.json.event === 'session.completed', 60_000);
    const requests = receiver.requests.filter(ofCall);
    const seen = (r: WebhookRequest) =>
      r.json.event === 'call.status.updated' ? r.json.data.status : r.json.event;
    expect(requests.map(seen)).toEqual([
      'pending',
      'pending',
      'pending',
      'ringing',
      'in_progress',
      'completed',
      'session.completed',
    ]);
    // The retries are the same delivery, sent again: the endpoint's history shows its three attempts.
    expect(requests[1].headers['x-webhook-id']).toBe(requests[0].headers['x-webhook-id']);
    expect(requests[2].headers['x-webhook-id']).toBe(requests[0].headers['x-webhook-id']);
    const delivery = await api(`/webhook-deliveries/${String(requests[0].headers['x-webhook-id'])}`, { key });
    expect(delivery.status).toBe(200);
    expect(delivery.body.data).toMatchObject({ endpoint_id: endpoint.id, status: 'succeeded', attempts: 3 });
  }, 90_000);
});
