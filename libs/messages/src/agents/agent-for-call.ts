import type { AgentSnapshot } from '../voice/agent-snapshot';

/**
 * What the agents service answers when a call starts with an agent or is handed to one (agents.agent.for_call):
 * the agent's snapshot, taken from its record and attached functions as they are now, and the few fields of the
 * record the call keeps beside it (who held the call, and the project it is reported under).
 */
export interface AgentForCall {
  id: string;
  name: string;
  projectId: string;
  snapshot: AgentSnapshot;
}
