// Real events end to end: a sandbox call's call.status.updated and session.completed, produced by the
// calls service, reach an account-wide endpoint and an agent endpoint with the contract's payloads.
import { api, CALL_STATUS_UPDATED_FIELDS, SESSION_COMPLETED_FIELDS } from '../../support';
import { createAgent, createEndpoint, newPartner } from './webhook-fixtures';
import { verifySignature, WebhookReceiver } from './webhook-receiver';

describe('webhooks from sandbox calls', () => {
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
  });

  afterAll(async () => {
    await receiver?.close();
  });

  it('delivers a completed call’s status updates and its session to account-wide and agent endpoints', async () => {
    const { key } = await newPartner();
    const agent = await createAgent(key);
    const account = await createEndpoint(key, { url: receiver.at('sandbox-account') });
    const own = await createEndpoint(
      key,
      { url: receiver.at('sandbox-agent'), events: ['session.completed'] },
      agent.id,
    );
    const ref = `ref-${Date.now()}`;
    const start = await api('/calls/start', {
      key,
      body: { agent_id: agent.id, to_number: '+919876500342', client_reference_id: ref },
    });
    expect(start.status).toBe(200);
    const callId = start.body.data.call_id;

    const sessions = await receiver.waitFor(
      2,
      (r) => r.json?.event === 'session.completed' && r.json.data.call_id === callId,
      60_000,
    );
    const statuses = receiver.requests.filter(
      (r) =>
        r.path === '/sandbox-account' &&
        r.json?.event === 'call.status.updated' &&
        r.json.data.call_id === callId,
    );
    expect(statuses.map((r) => r.json.data.status)).toEqual([
      'pending',
      'ringing',
      'in_progress',
      'completed',
    ]);
    for (const r of statuses) {
      expect(verifySignature(r, account.secret)).toBe(true);
      expect(Object.keys(r.json).sort()).toEqual(['data', 'event', 'timestamp']);
      expect(Object.keys(r.json.data).sort()).toEqual(CALL_STATUS_UPDATED_FIELDS);
      expect(r.json.data).toMatchObject({
        agent_id: agent.id,
        client_reference_id: ref,
        provider: 'sandbox',
      });
    }
    // The agent endpoint takes session.completed only.
    expect(receiver.requests.filter((r) => r.path === '/sandbox-agent').map((r) => r.json.event)).toEqual([
      'session.completed',
    ]);
    for (const s of sessions) {
      const secret = s.path === '/sandbox-account' ? account.secret : own.secret;
      expect(verifySignature(s, secret)).toBe(true);
      for (const field of SESSION_COMPLETED_FIELDS) expect(s.json.data).toHaveProperty(field);
      // A phone call's session (a browser session's says source browser and its id).
      expect(s.json.data).toMatchObject({
        agent_id: agent.id,
        processing_complete: true,
        source: 'phone',
        browser_session_id: null,
      });
      expect(Array.isArray(s.json.data.transcript)).toBe(true);
    }
    expect(new Set(sessions.map((s) => s.headers['x-webhook-id'])).size).toBe(2);
  }, 90_000);
});
