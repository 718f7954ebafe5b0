import { Injectable } from '@nestjs/common';
import { CallAnalysis } from '@vap/messages';
import { CallsConfig } from '../config/calls.config';
import { Call } from '../calls/entities/call.entity';
import { CallSession } from '../calls/entities/call-session.entity';
import { ModelChain, PostCallModels } from './llm/post-call-models';
import { withModelAttempts } from './model-attempts';

/**
 * Post-call analysis with the settings the call started with (its agent snapshot's analysis): a summary, and a
 * success evaluation when the agent has a rubric, on the agent's model (its fallbacks after it when it fails,
 * the deployment's default when it chose none); retried up to EXTRACTION_MAX_ATTEMPTS (the post-call model's one
 * retry budget), each attempt counted.
 */
@Injectable()
export class AnalysisRunner {
  constructor(
    private readonly config: CallsConfig,
    private readonly models: PostCallModels,
  ) {}

  /** null for a call started before agents had analysis settings: nothing was asked of it. */
  async run(
    call: Call,
    session: CallSession,
    chain: ModelChain = this.models.chainFor(call),
  ): Promise<CallAnalysis | null> {
    const settings = call.agentSettings.analysis;
    if (!settings) return null;
    if (!settings.summaryEnabled && !settings.successRubric) {
      return this.skipped('the agent asks for no summary and has no success rubric');
    }
    if (!session.transcript.some((line) => line.role === 'user')) {
      return this.skipped('the caller said nothing');
    }
    const started = Date.now();
    let tried: string | null = null;
    const run = await withModelAttempts(this.config.EXTRACTION_MAX_ATTEMPTS, () =>
      chain.ask(
        (llm) =>
          llm.analyze({
            transcript: session.transcript,
            variables: call.variables,
            summary: settings.summaryEnabled,
            summaryInstructions: settings.summaryInstructions,
            successRubric: settings.successRubric,
          }),
        (model) => (tried = model),
      ),
    );
    if (!run.ok) {
      return {
        status: 'failed',
        model: tried,
        analyzedAt: null,
        latencyMs: Date.now() - started,
        attempts: run.attempts,
        summary: null,
        success: null,
        error: run.error,
      };
    }
    const { value: answer, model } = run.value;
    return {
      status: 'success',
      model,
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
