// The models the agent a handoff gives the call to thinks with, asked for before it takes over. Either way of
// driving a call (the chain, a speech-to-speech session) asks the same way.
import type { AgentSnapshot } from '@vap/messages';
import type { AgentModel } from '../model-round';

/**
 * `modelsFor`'s answer for `agent`; null when there is no way to ask, it names none, or it fails (told to
 * `onError`): the call then stays on the models it has.
 */
export async function nextAgentModels(
  agent: AgentSnapshot,
  modelsFor: ((agent: AgentSnapshot) => Promise<readonly AgentModel[]>) | undefined,
  onError?: (error: unknown, context: string) => void,
): Promise<readonly AgentModel[] | null> {
  if (!modelsFor) return null;
  try {
    const models = await modelsFor(agent);
    return models.length ? models : null;
  } catch (error) {
    onError?.(error, "the next agent's models (the call stays on its models)");
    return null;
  }
}
