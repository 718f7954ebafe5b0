import { ByIdRequest, Subjects } from '@vap/messages';

/**
 * What the check needs of an RpcClient: the agents service's agent get. Typed by itself, so that this lib
 * compiles where the public commands (@vap/api adds agents.agent.get to the command map) are not in view.
 */
export interface AgentGetter {
  request(subject: typeof Subjects.agents.agentGet, caller: string, data: ByIdRequest): Promise<unknown>;
}

/**
 * 404 NOT_FOUND unless the agent is one of the partner's own and not deleted. The agents service decides
 * (its agent get answers exactly that), so other services never keep their own copy of the rule.
 */
export async function assertOwnAgent(rpc: AgentGetter, partnerId: string, agentId: string): Promise<void> {
  await rpc.request(Subjects.agents.agentGet, partnerId, { id: agentId });
}
