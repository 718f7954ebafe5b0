import { Injectable } from '@nestjs/common';
import { ExtractionResult, Subjects } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { CallsConfig } from '../config/calls.config';
import { Call } from '../calls/entities/call.entity';
import { CallSession } from '../calls/entities/call-session.entity';
import { ModelChain, PostCallModels } from './llm/post-call-models';
import { withModelAttempts } from './model-attempts';

/**
 * Post-call extraction with the agent's effective schema (attached sets + inline keys, from the agents
 * service) on the agent's model (its fallbacks after it, the deployment's default when it chose none); retried up
 * to EXTRACTION_MAX_ATTEMPTS, each attempt counted.
 */
@Injectable()
export class ExtractionRunner {
  constructor(
    private readonly rpc: RpcClient,
    private readonly config: CallsConfig,
    private readonly models: PostCallModels,
  ) {}

  async run(
    call: Call,
    session: CallSession,
    chain: ModelChain = this.models.chainFor(call),
  ): Promise<ExtractionResult> {
    if (!call.agentSettings.extractionEnabled) return this.skipped('extraction is disabled for the agent');
    const started = Date.now();
    let tried: string | null = null;
    // A schema that asks for nothing ends the attempts at once, with the reason the extraction is skipped.
    const run = await withModelAttempts(
      this.config.EXTRACTION_MAX_ATTEMPTS,
      async (): Promise<{ skipped: string } | { values: Record<string, unknown>; model: string }> => {
        const schema = await this.rpc.request(Subjects.agents.extractionEffectiveSchema, call.partnerId, {
          agentId: call.agentId,
        });
        if (!schema.extractionEnabled) return { skipped: 'extraction is disabled for the agent' };
        if (!schema.keys.length) return { skipped: 'the agent has no extraction keys' };
        const answered = await chain.ask(
          (llm) =>
            llm.extract({ keys: schema.keys, transcript: session.transcript, variables: call.variables }),
          (model) => (tried = model),
        );
        return { values: answered.value, model: answered.model };
      },
    );
    if (!run.ok) {
      return {
        status: 'failed',
        model: tried,
        extractedAt: null,
        latencyMs: Date.now() - started,
        attempts: run.attempts,
        values: {},
        error: run.error,
      };
    }
    if ('skipped' in run.value) return this.skipped(run.value.skipped);
    return {
      status: 'success',
      model: run.value.model,
      extractedAt: new Date().toISOString(),
      latencyMs: Date.now() - started,
      attempts: run.attempts,
      values: run.value.values,
      error: null,
    };
  }

  private skipped(reason: string): ExtractionResult {
    return {
      status: 'skipped',
      model: null,
      extractedAt: null,
      latencyMs: null,
      attempts: 0,
      values: {},
      error: reason,
    };
  }
}
