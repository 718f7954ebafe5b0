import type { AgentSnapshot } from '@vap/messages';
import type { AgentModel } from '../model-round';
import { nextAgentModels } from './next-agent-models';

const agent = { prompt: 'You are billing.' } as AgentSnapshot;
const groq: AgentModel = { provider: 'groq', model: 'llama', paidBy: 'account', llm: {} as never };

describe('nextAgentModels', () => {
  it("gives the next agent's own models, asked for that agent", async () => {
    const asked: AgentSnapshot[] = [];
    const models = await nextAgentModels(agent, async (a) => (asked.push(a), [groq]));
    expect(models).toEqual([groq]);
    expect(asked).toEqual([agent]);
  });

  it('keeps the call on its models when there is no way to ask, the answer names none, or asking fails', async () => {
    const errors: string[] = [];
    const onError = (error: unknown, context: string) =>
      errors.push(`${context}: ${(error as Error).message}`);
    expect(await nextAgentModels(agent, undefined, onError)).toBeNull();
    expect(await nextAgentModels(agent, async () => [], onError)).toBeNull();
    expect(errors).toEqual([]);
    const down = async (): Promise<AgentModel[]> => {
      throw new Error('agents.model.plan timed out');
    };
    expect(await nextAgentModels(agent, down, onError)).toBeNull();
    expect(errors).toEqual([
      "the next agent's models (the call stays on its models): agents.model.plan timed out",
    ]);
  });
});
