import { Inject, Injectable } from '@nestjs/common';
import { ExtractionResult, Subjects } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { CallsConfig } from '../config/calls.config';
import { Call } from '../calls/entities/call.entity';
import { CallSession } from '../calls/entities/call-session.entity';
import { LLM_ADAPTER, LlmAdapter } from './llm/llm-adapter';

const RETRY_DELAY_MS = 250;

/**
 * Post-call extraction with the agent's effective schema (attached sets + inline keys, from the agents
 * service) through the LLM adapter; retried up to EXTRACTION_MAX_ATTEMPTS, each attempt counted.
 */
@Injectable()
export class ExtractionRunner {
  constructor(
    private readonly rpc: RpcClient,
    private readonly config: CallsConfig,
    @Inject(LLM_ADAPTER) private readonly llm: LlmAdapter,
  ) {}

  async run(call: Call, session: CallSession): Promise<ExtractionResult> {
    if (!call.agentSettings.extractionEnabled) return this.skipped('extraction is disabled for the agent');
    let attempts = 0;
    let lastError = 'no attempt made';
    const started = Date.now();
    while (attempts < this.config.EXTRACTION_MAX_ATTEMPTS) {
      attempts++;
      try {
        const schema = await this.rpc.request(Subjects.agents.extractionEffectiveSchema, call.partnerId, {
          agentId: call.agentId,
        });
        if (!schema.extractionEnabled) return this.skipped('extraction is disabled for the agent');
        if (!schema.keys.length) return this.skipped('the agent has no extraction keys');
        const values = await this.llm.extract({
          keys: schema.keys,
          transcript: session.transcript,
          variables: call.variables,
        });
        return {
          status: 'success',
          model: this.llm.model,
          extractedAt: new Date().toISOString(),
          latencyMs: Date.now() - started,
          attempts,
          values,
          error: null,
        };
      } catch (err) {
        lastError = err instanceof Error ? err.message : String(err);
        if (attempts < this.config.EXTRACTION_MAX_ATTEMPTS)
          await new Promise((r) => setTimeout(r, RETRY_DELAY_MS * attempts));
      }
    }
    return {
      status: 'failed',
      model: this.llm.model,
      extractedAt: null,
      latencyMs: Date.now() - started,
      attempts,
      values: {},
      error: lastError,
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
