import { AppError, ErrorCode, Subjects } from '@vap/messages';
import { assertOwnAgent } from './agent-ownership';
import { RpcClient } from './rpc-client.service';

function rpcAnswering(answer: () => Promise<unknown>): { rpc: RpcClient; request: jest.Mock } {
  const request = jest.fn(answer);
  return { rpc: { request } as unknown as RpcClient, request };
}

describe('assertOwnAgent', () => {
  it('asks the agents service for the agent as the partner and resolves when it answers', async () => {
    const { rpc, request } = rpcAnswering(async () => ({ id: 'a1' }));
    await expect(assertOwnAgent(rpc, 'partner-1', 'a1')).resolves.toBeUndefined();
    expect(request).toHaveBeenCalledTimes(1);
    expect(request).toHaveBeenCalledWith(Subjects.agents.agentGet, 'partner-1', { id: 'a1' });
  });

  it("passes the agents service's 404 on as it is", async () => {
    const notFound = AppError.notFound('Agent');
    const { rpc } = rpcAnswering(async () => {
      throw notFound;
    });
    await expect(assertOwnAgent(rpc, 'partner-1', 'someone-elses')).rejects.toBe(notFound);
    expect(notFound.code).toBe(ErrorCode.NOT_FOUND);
  });

  it('passes a downstream failure on rather than treating the agent as owned', async () => {
    const down = AppError.downstream('A downstream service is unavailable; retry');
    const { rpc } = rpcAnswering(async () => {
      throw down;
    });
    await expect(assertOwnAgent(rpc, 'partner-1', 'a1')).rejects.toBe(down);
  });
});
