import { Subjects } from '@vap/messages';
import { RpcClient } from './rpc-client.service';

/**
 * 404 NOT_FOUND unless the agent is one of the partner's own and not deleted. The agents service decides
 * (its agent get answers exactly that), so other services never keep their own copy of the rule.
 */
export async function assertOwnAgent(rpc: RpcClient, partnerId: string, agentId: string): Promise<void> {
  await rpc.request(Subjects.agents.agentGet, partnerId, { id: agentId });
}
