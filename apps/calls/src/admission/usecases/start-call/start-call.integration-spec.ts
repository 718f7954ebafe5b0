// Starting a call in the running calls module: the agents service is a fake peer answering the agent the call
// copies, and the carrier is a fake of the sandbox line's carrier_b REST API (SANDBOX_CARRIER_URL), outside the
// platform. The call is admitted, stored with its agent's snapshot, dialled once, and its status published.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { CallStatusUpdatedData, DomainEvents } from '@vap/messages';
import { FakeSandboxCarrier } from '../../../testing/fake-sandbox-carrier';
import { useCallsOnSandbox } from '../../../testing/sandbox-calls';
import { answerAgents, approvedPartner, SPEC_SNAPSHOT } from '../../../testing/spec-partners';

describe('start a call', () => {
  const carrier = new FakeSandboxCarrier();

  const calls = useCallsOnSandbox(carrier);

  it('admits the call with its agent from the agents service, dials it, stores it and publishes it', async () => {
    const agentId = randomUUID();
    const projectId = randomUUID();
    answerAgents(calls.peers, projectId);
    const partner = approvedPartner();

    const { call, replayed } = await calls.send('calls.call.start', partner, {
      agent_id: agentId,
      to_number: '+919812345678',
    });

    expect(replayed).toBe(false);
    expect(calls.peers.received).toContainEqual({
      subject: 'agents.agent.for_call',
      partnerId: partner.id,
      data: { id: agentId },
    });
    const placed = carrier.requests.filter((r) => r.method === 'POST' && r.path === '/Calls.json');
    expect(placed).toHaveLength(1);
    expect(placed[0].form.get('To')).toBe('+919812345678');
    const [row] = (await calls.get(DataSource).query(
      `SELECT partner_id, agent_id, project_id, provider, provider_call_id, status, agent_settings
           FROM calls.calls WHERE id = $1`,
      [call.call_id],
    )) as Record<string, unknown>[];
    expect(row).toMatchObject({
      partner_id: partner.id,
      agent_id: agentId,
      project_id: projectId,
      provider: 'sandbox',
      provider_call_id: placed[0].sid,
      // The agent's snapshot as the agents service answered it, whole.
      agent_settings: expect.objectContaining(SPEC_SNAPSHOT),
    });
    const published = await calls.waitForEvent<CallStatusUpdatedData>(
      DomainEvents.callStatusUpdated,
      (e) => e.data.call_id === call.call_id,
    );
    expect(published.data).toMatchObject({ agent_id: agentId, to_number: '+919812345678' });
    expect(calls.peers.unanswered).toEqual([]);
  });
});
