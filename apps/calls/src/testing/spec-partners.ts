// Partners and agents as the gateway and the agents service hand them to the calls service, for the specs of its
// public commands: a partner's context (the caller of a command) and the agents service's answer for an agent.
import { randomUUID } from 'node:crypto';
import { AGENT_SNAPSHOT_VERSION, AgentForCall, AgentSnapshot, PartnerContext } from '@vap/messages';
import { FakePeers } from '@vap/testing/integration';

/** An approved partner with room for calls and money for them, unless `fields` say otherwise. */
export function approvedPartner(fields: Partial<PartnerContext> = {}): PartnerContext {
  return {
    id: randomUUID(),
    status: 'approved',
    voiceTier: 'standard',
    concurrencyLimit: 5,
    balancePaise: 100_000,
    pricePerMinutePaise: null,
    version: 1,
    ...fields,
  };
}

/** The snapshot the fake agents service answers: no recording, knowledge, tools or handoffs. */
export const SPEC_SNAPSHOT = {
  version: AGENT_SNAPSHOT_VERSION,
  prompt: 'You help.',
  voiceId: 'voice-1',
  spokenLanguages: ['en'],
  introMessage: 'Hello, this is Maya.',
  enableRecording: false,
  maxCallDurationSecs: 300,
  toolAckConfig: null,
  hasKnowledge: false,
  handoffs: [],
  customFunctions: [],
} as Partial<AgentSnapshot> as AgentSnapshot;

/**
 * The agents service answering agents.agent.for_call for any agent id, named Support in one project, with
 * SPEC_SNAPSHOT; an agent `settings` names by id has those settings over it.
 */
export function answerAgents(
  peers: FakePeers,
  projectId = randomUUID(),
  settings: Record<string, Partial<AgentSnapshot>> = {},
): void {
  peers.answer('agents.agent.for_call', ({ id }): AgentForCall => ({
    id,
    name: 'Support',
    projectId,
    snapshot: settings[id] ? { ...SPEC_SNAPSHOT, ...settings[id] } : SPEC_SNAPSHOT,
  }));
}
