import { Subjects } from '@vap/contracts';
import { RpcClient } from '@vap/messaging';

/** 404 NOT_FOUND unless the agent is one of the partner's own (and not deleted); the agents service decides. */
export async function assertOwnAgent(rpc: RpcClient, partnerId: string, agentId: string): Promise<void> {
  await rpc.request(Subjects.agents.agentGet, partnerId, { id: agentId });
}
