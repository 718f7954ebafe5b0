// Delivery rules 1-6 of the contract: allowlists, agent scope, the fan-out flag on and off, events with no
// agent, and dropping an event no own allowlist takes. Events are published onto the run's stream as the
// calls service's outbox would; each request is verified the way a partner's receiver would.
import { Client } from 'pg';
import { waitFor } from '@vap/testing';
import { api, e2eEnv } from '../../support';
import {
  createAgent,
  createEndpoint,
  EventPublisher,
  newPartner,
  statusData,
  useDeliveryBench,
} from './webhook-fixtures';
import { verifySignature, WebhookReceiver } from './webhook-receiver';

const STATUS = 'events.call.status_updated';
const SESSION = 'events.session.completed';

interface Endpoint {
  id: string;
  secret: string;
  path: string;
}

describe('webhook fan-out', () => {
  let receiver: WebhookReceiver;
  let events: EventPublisher;
  let partnerId: string;
  let key: string;

  const bench = useDeliveryBench();
  beforeAll(() => ({ receiver, events } = bench));

  beforeEach(async () => {
    ({ id: partnerId, key } = await newPartner());
  });

  async function endpoint(
    path: string,
    body: Record<string, unknown> = {},
    agentId?: string,
  ): Promise<Endpoint> {
    const e = await createEndpoint(key, { url: receiver.at(path), ...body }, agentId);
    return { id: e.id, secret: e.secret, path };
  }

  /** The event ids whose deliveries an endpoint holds (its history). */
  async function eventIdsOf(e: Endpoint): Promise<string[]> {
    const res = await api(`/config/webhooks/${e.id}/deliveries?limit=100`, { key });
    return res.body.data.deliveries.map((d: { event_id: string }) => d.event_id);
  }

  /** Waits for the event at every `expected` endpoint, then checks no other endpoint got a delivery of it. */
  async function expectDelivered(eventId: string, expected: Endpoint[], all: Endpoint[]): Promise<void> {
    for (const e of expected) {
      const [req] = await receiver.waitFor(
        1,
        (r) =>
          r.path === `/${e.path}` &&
          r.headers['x-webhook-event'] !== 'webhook.test' &&
          JSON.stringify(r.json).includes(eventIdMarker(eventId)),
      );
      expect(verifySignature(req, e.secret)).toBe(true);
    }
    // Fan-out writes every delivery of an event in one transaction: once one arrived, all rows exist.
    for (const e of all) {
      expect({ endpoint: e.path, got: (await eventIdsOf(e)).includes(eventId) }).toEqual({
        endpoint: e.path,
        got: expected.includes(e),
      });
    }
  }

  /** Waits until the webhooks service has handled an event (its inbox holds it), delivered or not. */
  async function handled(eventId: string): Promise<void> {
    const db = new Client({ connectionString: e2eEnv().databaseUrl });
    await db.connect();
    try {
      await waitFor(
        async () => (await db.query('SELECT 1 FROM webhooks.inbox WHERE event_id = $1', [eventId])).rowCount,
        {
          timeoutMs: 10_000,
          description: `event ${eventId} handled by the webhooks service`,
        },
      );
    } finally {
      await db.end();
    }
  }

  // Specs mark each published event's data with its own call_id, which the request body carries.
  const markers = new Map<string, string>();
  const eventIdMarker = (eventId: string) => markers.get(eventId)!;

  async function publish(
    subject: string,
    agentId: string | null,
    extra: Record<string, unknown> = {},
  ): Promise<string> {
    const data = statusData(agentId, extra);
    const id = await events.publish(subject, partnerId, data);
    markers.set(id, data.call_id as string);
    return id;
  }

  it('sends an agent’s event to matching account-wide and own endpoints, each signed on its own (rules 2-4)', async () => {
    const agent = await createAgent(key);
    const other = await createAgent(key);
    const accountAll = await endpoint('f1-account-all');
    const accountSessions = await endpoint('f1-account-sessions', { events: ['session.completed'] });
    const agentAll = await endpoint('f1-agent-all', {}, agent.id);
    const agentStatus = await endpoint('f1-agent-status', { events: ['call.status.updated'] }, agent.id);
    const otherAgent = await endpoint('f1-other-agent', {}, other.id);
    const all = [accountAll, accountSessions, agentAll, agentStatus, otherAgent];

    const status = await publish(STATUS, agent.id);
    await expectDelivered(status, [accountAll, agentAll, agentStatus], all);
    const session = await publish(SESSION, agent.id);
    await expectDelivered(session, [accountAll, accountSessions, agentAll], all);

    // Each delivery has its own id; the body is the same event.
    const got = receiver.requests.filter((r) => JSON.stringify(r.json).includes(eventIdMarker(status)));
    expect(new Set(got.map((r) => r.headers['x-webhook-id'])).size).toBe(3);
    expect(new Set(got.map((r) => r.rawBody)).size).toBe(1);
  });

  it('sends events with no agent to account-wide endpoints only (rule 5)', async () => {
    const agent = await createAgent(key);
    const accountAll = await endpoint('f2-account-all');
    const agentAll = await endpoint('f2-agent-all', {}, agent.id);
    const id = await publish(STATUS, null);
    await expectDelivered(id, [accountAll], [accountAll, agentAll]);
  });

  it('keeps account-wide endpoints out with the flag off, and drops what no own allowlist takes (rules 5-6)', async () => {
    const agent = await createAgent(key);
    const accountAll = await endpoint('f3-account-all');
    const agentStatus = await endpoint('f3-agent-status', { events: ['call.status.updated'] }, agent.id);
    const all = [accountAll, agentStatus];
    const off = await api(`/agent/${agent.id}/webhooks`, {
      method: 'PATCH',
      key,
      body: { include_account_endpoints: false },
    });
    expect(off.status).toBe(200);

    const status = await publish(STATUS, agent.id);
    await expectDelivered(status, [agentStatus], all);

    // session.completed is in no own allowlist: dropped, not passed on to the account-wide endpoint.
    const dropped = await publish(SESSION, agent.id);
    await handled(dropped);
    expect(await eventIdsOf(accountAll)).not.toContain(dropped);
    expect(await eventIdsOf(agentStatus)).not.toContain(dropped);

    // Events without an agent still reach the account-wide endpoint; other agents are unaffected.
    const other = await createAgent(key);
    const otherStatus = await publish(STATUS, other.id);
    await expectDelivered(otherStatus, [accountAll], all);

    // Back on: the account-wide endpoint gets the agent's events again.
    await api(`/agent/${agent.id}/webhooks`, {
      method: 'PATCH',
      key,
      body: { include_account_endpoints: true },
    });
    const again = await publish(STATUS, agent.id);
    await expectDelivered(again, [accountAll, agentStatus], all);
  });

  it('delivers nothing to a disabled endpoint', async () => {
    const on = await endpoint('f4-on');
    const off = await endpoint('f4-off');
    expect(
      (await api(`/config/webhooks/${off.id}`, { method: 'PATCH', key, body: { enabled: false } })).status,
    ).toBe(200);
    const id = await publish(STATUS, null);
    await expectDelivered(id, [on], [on, off]);
    expect(receiver.on(off.path)).toHaveLength(0);
  });

  it('carries the contract’s body and headers', async () => {
    const e = await endpoint('f5-headers');
    const data = statusData(null, { status: 'completed', previous_status: 'in_progress', terminal: true });
    const eventId = await events.publish(STATUS, partnerId, data);
    const [req] = await receiver.waitFor(1, (r) => r.path === `/${e.path}`);
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['x-webhook-timestamp']).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(req.headers['x-webhook-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(req.headers['x-webhook-event']).toBe('call.status.updated');
    expect(verifySignature(req, e.secret)).toBe(true);
    expect(Object.keys(req.json).sort()).toEqual(['data', 'event', 'timestamp']);
    expect(req.json.event).toBe('call.status.updated');
    expect(Date.parse(req.json.timestamp)).not.toBeNaN();
    expect(req.json.data).toEqual(data);
    // The outcome is recorded after the receiver answers: wait for it rather than race it.
    const delivery = await waitFor(
      async () => {
        const [d] = (await api(`/config/webhooks/${e.id}/deliveries`, { key })).body.data.deliveries;
        return d && d.status !== 'delivering' ? d : undefined;
      },
      { description: 'the delivery to be recorded' },
    );
    expect(delivery).toMatchObject({
      event_id: eventId,
      event_type: 'call.status.updated',
      status: 'succeeded',
      attempts: 1,
    });
    expect(req.headers['x-webhook-id']).toBe(delivery.id);
    // A tampered body or another secret does not verify.
    expect(verifySignature({ ...req, rawBody: req.rawBody.replace('completed', 'failed') }, e.secret)).toBe(
      false,
    );
    expect(verifySignature(req, 'whsec_not-the-secret')).toBe(false);
  });
});
