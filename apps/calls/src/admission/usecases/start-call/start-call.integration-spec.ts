// Starting a call in the running calls module: the agents service is a fake peer answering the agent the call
// copies, and the carrier is a fake of the sandbox line's carrier_b REST API (SANDBOX_CARRIER_URL), outside the
// platform. The call is admitted, stored with its agent's snapshot, dialled once, and its status published.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import {
  AGENT_SNAPSHOT_VERSION,
  AgentSnapshot,
  CallStatusUpdatedData,
  DomainEvents,
  PartnerContext,
} from '@vap/messages';
import { useIntegrationApp } from '@vap/testing/integration';
import { FakeSandboxCarrier } from '../../../testing/fake-sandbox-carrier';
import { startCallsOnSandbox } from '../../../testing/sandbox-calls';

const SNAPSHOT: AgentSnapshot = {
  version: AGENT_SNAPSHOT_VERSION,
  prompt: 'You help.',
  voiceId: 'voice-1',
  spokenLanguages: ['en'],
  introMessage: 'Hello, this is Maya.',
  enableRecording: false,
  maxCallDurationSecs: 300,
  endCallEnabled: true,
  endCallMessage: null,
  endCallInstructions: null,
  transferEnabled: false,
  transferNumber: null,
  transferMessage: null,
  transferInstructions: null,
  voicemailDetectionEnabled: false,
  voicemailMessage: null,
  userIdleEnabled: false,
  toolAckConfig: null,
  backgroundAudioId: null,
  backgroundAudioVolume: 0,
  kbThreshold: null,
  kbIncludeSummaries: false,
  kbResultFormat: null,
  hasKnowledge: false,
  extractionEnabled: false,
};

describe('start a call', () => {
  const carrier = new FakeSandboxCarrier();

  const calls = useIntegrationApp(() => startCallsOnSandbox(carrier), { afterStop: () => carrier.close() });

  it('admits the call with its agent from the agents service, dials it, stores it and publishes it', async () => {
    const agentId = randomUUID();
    const projectId = randomUUID();
    calls.peers.answer('agents.agent.for_call', ({ id }) => ({
      id,
      name: 'Support',
      projectId,
      snapshot: SNAPSHOT,
    }));
    const partner: PartnerContext = {
      id: randomUUID(),
      status: 'approved',
      voiceTier: 'standard',
      concurrencyLimit: 5,
      balancePaise: 100_000,
      pricePerMinutePaise: null,
      version: 1,
    };

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
      agent_settings: expect.objectContaining({ prompt: 'You help.', maxCallDurationSecs: 300 }),
    });
    const published = await calls.waitForEvent<CallStatusUpdatedData>(
      DomainEvents.callStatusUpdated,
      (e) => e.data.call_id === call.call_id,
    );
    expect(published.data).toMatchObject({ agent_id: agentId, to_number: '+919812345678' });
    expect(calls.peers.unanswered).toEqual([]);
  });
});
