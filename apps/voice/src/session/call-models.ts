// A call's models, as the agent chose them and the account's keys allow: the plan the agents service resolves
// (agents.model.plan: the agent's model, then its fallbacks, each with the key that answers it and who pays),
// turned into the chain the conversation thinks with. An agent that chose no model, or whose models none can run
// any more, thinks with the deployment's default chain (LLM_BASE_URL's server, else the offline engine).
import { Subjects, type AgentSnapshot, type ModelPlan, type VoiceCallContext } from '@vap/messages';
import type { RpcClient } from '@vap/messaging';
import { createPlannedModel, type PlannedModelOptions } from '@vap/llm';
import type { AgentModel } from '../conversation';

/** The plan of an agent that chose no model: the deployment's default answers. */
export const DEFAULT_MODEL_PLAN: ModelPlan = { models: [] };

/**
 * The models `agent` thinks with on this call (the call's own agent, or the one a handoff gives it to). An agent
 * that chose none needs no plan: the agents service is not asked. Rejects when the agents service cannot say.
 */
export async function fetchModelPlan(
  rpc: RpcClient,
  context: VoiceCallContext,
  agent: AgentSnapshot = context.agent,
): Promise<ModelPlan> {
  if (!agent.model) return DEFAULT_MODEL_PLAN;
  return rpc.request(Subjects.agents.modelPlan, context.partnerId, {
    callId: context.callId,
    model: agent.model,
    fallbackModels: agent.fallbackModels ?? [],
  });
}

/**
 * Whether the call runs on a speech-to-speech session (OpenAI Realtime, Gemini Live) instead of the transcriber,
 * model and voice chain: the plan's first model is a speech-to-speech one.
 */
export function startsRealtime(plan: ModelPlan): boolean {
  return plan.models[0]?.speechToSpeech === true;
}

export interface ModelChainOptions extends PlannedModelOptions {
  /** Wall ms a provider may stay silent (before its first byte, between chunks) before it counts as failed. */
  timeoutMs: number;
  /** The deployment's default chain: what a plan with no model the chain can run gives. */
  defaults(): AgentModel[];
  /** A plan entry that cannot run (an unknown provider, a cloud entry without its key), for the log. */
  onSkipped?(entry: string, reason: string): void;
}

/**
 * The chain a plan gives: each entry's own adapter (its key, its resource or signing secret, its parameters), in
 * the plan's order; speech-to-speech entries are not run by a chain and are passed over. None left: the
 * deployment's default chain.
 */
export function modelChainOf(plan: ModelPlan, options: ModelChainOptions): AgentModel[] {
  const models: AgentModel[] = [];
  for (const entry of plan.models) {
    if (entry.speechToSpeech) continue;
    try {
      const llm = createPlannedModel(entry, options.timeoutMs, {
        ...(options.allowPrivateNetworks !== undefined
          ? { allowPrivateNetworks: options.allowPrivateNetworks }
          : {}),
      });
      models.push({
        provider: entry.provider,
        model: entry.model,
        paidBy: entry.credential?.paidBy ?? null,
        llm,
        parameters: {
          ...(entry.temperature !== undefined ? { temperature: entry.temperature } : {}),
          ...(entry.maxTokens !== undefined ? { maxTokens: entry.maxTokens } : {}),
          ...(entry.topP !== undefined ? { topP: entry.topP } : {}),
        },
      });
    } catch (err) {
      options.onSkipped?.(`${entry.provider}:${entry.model}`, (err as Error).message);
    }
  }
  return models.length ? models : options.defaults();
}
