import { AgentForCall, AgentSnapshot } from '@vap/messages';
import { newCall, NewCallFields } from './call.entity';

// What the agents service answers for a call (its snapshot is built and checked there: agent.entity.spec).
const agent: AgentForCall = {
  id: 'a0000000-0000-4000-8000-000000000001',
  name: 'Maya',
  projectId: 'c0000000-0000-4000-8000-000000000003',
  snapshot: { prompt: 'Be kind', introMessage: 'Hello', enableRecording: true } as AgentSnapshot,
};

const fields: NewCallFields = {
  partnerId: 'p-1',
  direction: 'inbound',
  fromNumber: '+15550000001',
  toNumber: '+15550000002',
  phoneNumberId: null,
  connectionId: 'conn-1',
  provider: 'carrier_b',
  providerCallId: 'CA1',
  clientReferenceId: null,
  variables: {},
  concurrencyLimit: null,
  providerStatus: 'ringing',
  providerEvent: 'inbound',
};

describe('newCall', () => {
  it('starts pending with nothing measured or decided, the agent copied and the given fields', () => {
    const call = newCall(agent, fields);
    expect(call).toEqual({
      ...fields,
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      sessionId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      agentId: agent.id,
      agentName: 'Maya',
      // Stored as the agents service built it.
      agentSettings: agent.snapshot,
      // The agent holding the call is the one it starts with until a handoff.
      currentAgentSettings: null,
      // Not transferred until the agent transfers it.
      transfer: null,
      status: 'pending',
      disposition: null,
      answeredBy: null,
      endCallReason: null,
      hangupCause: null,
      hangupSource: null,
      billDurationSeconds: null,
      campaignId: null,
      customerId: null,
      projectId: 'c0000000-0000-4000-8000-000000000003',
      durationSeconds: null,
      errorMessage: null,
      startedAt: null,
      endedAt: null,
      platformSpeechProviders: [],
      modelPaidBy: [],
    });
    expect(call.sessionId).not.toBe(call.id);
  });

  it('gives every call its own ids', () => {
    const [a, b] = [newCall(agent, fields), newCall(agent, fields)];
    expect(a.id).not.toBe(b.id);
    expect(a.sessionId).not.toBe(b.sessionId);
  });
});
