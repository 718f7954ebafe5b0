import { Inject, Injectable, Logger } from '@nestjs/common';
import { createPlannedModel } from '@vap/llm';
import { AgentSnapshot, ModelPlan, Subjects } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { CallsConfig } from '../../config/calls.config';
import type { Call } from '../../calls/entities/call.entity';
import { LLM_ADAPTER, LlmAdapter } from './llm-adapter';

/**
 * The models one call's post-call work (extraction, analysis) runs on, in order, asked for once and only when a
 * task needs them: the call's agent's model, then its fallbacks, each with the key the account has for it now
 * (agents.model.plan, as the voice service asks it for the call), or the deployment's default when the agent
 * chose none, none of its models can run a text task, or the plan cannot be had.
 */
export class ModelChain {
  private loaded?: Promise<readonly LlmAdapter[]>;

  constructor(private readonly load: () => Promise<readonly LlmAdapter[]>) {}

  /** A chain of the given models (never empty in use: the default stands behind every plan). */
  static of(...models: LlmAdapter[]): ModelChain {
    return new ModelChain(async () => models);
  }

  models(): Promise<readonly LlmAdapter[]> {
    return (this.loaded ??= this.load());
  }

  /**
   * Asks each model in turn until one answers: its answer and its model id. `tried` hears each model as it is
   * asked (the one to report when every one fails). Throws the last model's failure.
   */
  async ask<T>(
    task: (llm: LlmAdapter) => Promise<T>,
    tried?: (model: string) => void,
  ): Promise<{ value: T; model: string }> {
    let failure: unknown = new Error('no model to ask');
    for (const llm of await this.models()) {
      tried?.(llm.model);
      try {
        return { value: await task(llm), model: llm.model };
      } catch (err) {
        failure = err;
      }
    }
    throw failure;
  }
}

@Injectable()
export class PostCallModels {
  private readonly logger = new Logger(PostCallModels.name);

  constructor(
    private readonly rpc: RpcClient,
    private readonly config: CallsConfig,
    @Inject(LLM_ADAPTER) private readonly deploymentDefault: LlmAdapter,
  ) {}

  /** The chain for `call`, by the agent snapshot the call started with (whose analysis settings it runs). */
  chainFor(call: Pick<Call, 'id' | 'partnerId' | 'agentSettings'>): ModelChain {
    return new ModelChain(() => this.modelsOf(call.id, call.partnerId, call.agentSettings));
  }

  private async modelsOf(callId: string, partnerId: string, agent: AgentSnapshot): Promise<LlmAdapter[]> {
    if (!agent.model) return [this.deploymentDefault];
    let plan: ModelPlan;
    try {
      plan = await this.rpc.request(Subjects.agents.modelPlan, partnerId, {
        callId,
        model: agent.model,
        fallbackModels: agent.fallbackModels ?? [],
      });
    } catch (err) {
      this.logger.warn(
        `call ${callId}: the agent's model plan could not be had (${(err as Error).message}); ` +
          'post-call work runs on the default model',
      );
      return [this.deploymentDefault];
    }
    const models: LlmAdapter[] = [];
    for (const entry of plan.models) {
      // A speech-to-speech model answers a live conversation only, never a text task.
      if (entry.speechToSpeech) continue;
      try {
        models.push(createPlannedModel(entry, this.config.LLM_TIMEOUT_MS));
      } catch (err) {
        this.logger.warn(
          `call ${callId}: ${entry.provider}:${entry.model} passed over: ${(err as Error).message}`,
        );
      }
    }
    return models.length ? models : [this.deploymentDefault];
  }
}
