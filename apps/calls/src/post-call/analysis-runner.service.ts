import { Inject, Injectable } from '@nestjs/common';
import { CallAnalysis } from '@vap/messages';
import { CallsConfig } from '../config/calls.config';
import { Call } from '../calls/entities/call.entity';
import { CallSession } from '../calls/entities/call-session.entity';
import { LLM_ADAPTER, LlmAdapter } from './llm/llm-adapter';
import { withModelAttempts } from './model-attempts';

/**
 * Post-call analysis with the settings the call started with (its agent snapshot's analysis): a summary, and a
 * success evaluation when the agent has a rubric, through the LLM adapter; retried up to EXTRACTION_MAX_ATTEMPTS
 * (the post-call model's one retry budget), each attempt counted.
 */
@Injectable()
export class AnalysisRunner {
  constructor(
    private readonly config: CallsConfig,
    @Inject(LLM_ADAPTER) private readonly llm: LlmAdapter,
  ) {}

  /** null for a call started before agents had analysis settings: nothing was asked of it. */
  async run(call: Call, session: CallSession): Promise<CallAnalysis | null> {
    const settings = call.agentSettings.analysis;
    if (!settings) return null;
    if (!settings.summaryEnabled && !settings.successRubric) {
      return this.skipped('the agent asks for no summary and has no success rubric');
    }
    if (!session.transcript.some((line) => line.role === 'user')) {
      return this.skipped('the caller said nothing');
    }
    const started = Date.now();
    const run = await withModelAttempts(this.config.EXTRACTION_MAX_ATTEMPTS, () =>
      this.llm.analyze({
        transcript: session.transcript,
        variables: call.variables,
        summary: settings.summaryEnabled,
        summaryInstructions: settings.summaryInstructions,
        successRubric: settings.successRubric,
      }),
    );
    if (!run.ok) {
      return {
        status: 'failed',
        model: this.llm.model,
        analyzedAt: null,
        latencyMs: Date.now() - started,
        attempts: run.attempts,
        summary: null,
        success: null,
        error: run.error,
      };
    }
    const answer = run.value;
    return {
      status: 'success',
      model: this.llm.model,
      analyzedAt: new Date().toISOString(),
      latencyMs: Date.now() - started,
      attempts: run.attempts,
      summary: answer.summary,
      success: answer.success
        ? {
            passed: answer.success.score >= settings.successThreshold,
            score: answer.success.score,
            threshold: settings.successThreshold,
            reasons: answer.success.reasons,
          }
        : null,
      error: null,
    };
  }

  private skipped(reason: string): CallAnalysis {
    return {
      status: 'skipped',
      model: null,
      analyzedAt: null,
      latencyMs: null,
      attempts: 0,
      summary: null,
      success: null,
      error: reason,
    };
  }
}
