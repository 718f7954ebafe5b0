import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { DomainEvents, SessionCompletedData } from '@vap/messages';
import { OutboxService } from '@vap/messaging';
import { tableOf } from '@vap/persistence';
import { paiseToInr } from '../calls/call-dto';
import { Call } from '../calls/entities/call.entity';
import { callModelUsage } from '../calls/model-usage';
import { CallSession } from '../calls/entities/call-session.entity';
import { RecordingStore } from '../recording/recording-store';
import { PostCallNotReady } from './post-call-not-ready';
import { CarrierRecordingCopier } from './carrier-recording-copier.service';
import { ExtractionRunner } from './extraction-runner.service';
import { AnalysisRunner } from './analysis-runner.service';
import { PostCallModels } from './llm/post-call-models';
import { summarizeHold } from '../calls/hold-summary';
import { LifecycleHooksService } from '../lifecycle-hooks/lifecycle-hooks.service';
import { enqueuePostCallHook, pendingPostCallHook } from '../lifecycle-hooks/post-call-hook-queue';

/** Attempts of a post-call job that wait for the voice service's end-of-stream report (2 + 4 + 8 s). */
export const MEDIA_STREAM_WAIT_ATTEMPTS = 4;

/**
 * Finishes one ended call: hold summary, extraction, analysis, then session.completed in the same
 * transaction that marks the session complete, so the event exists exactly once. A call that did not
 * complete is reported as a terminal failure: duration 0, transcript null. The charge is not computed
 * here: it was fixed when the call ended (recordCallCharge) and billing does not wait for this job.
 */
@Injectable()
export class PostCallProcessor {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly extraction: ExtractionRunner,
    private readonly analysis: AnalysisRunner,
    private readonly recordings: RecordingStore,
    private readonly carrierRecordings: CarrierRecordingCopier,
    private readonly hooks: LifecycleHooksService,
    private readonly models: PostCallModels,
  ) {}

  /** `attempt` counts from 1; late carrier recordings are waited for on the first attempts only. */
  async process(callId: string, attempt = 1): Promise<void> {
    if (!callId) throw new Error('post-call job without a call id');
    // The session before the call: the voice service's end report writes both in one transaction, so a session
    // read as ended comes with the call's platform-paid providers, which session.completed carries to billing.
    const before = await this.dataSource.getRepository(CallSession).findOneByOrFail({ callId });
    const call = await this.dataSource.getRepository(Call).findOneByOrFail({ id: callId });
    if (before.processingComplete) return;
    const answered = call.status === 'completed';
    if (answered && before.mediaStream === 'live' && attempt < MEDIA_STREAM_WAIT_ATTEMPTS) {
      throw new PostCallNotReady('waiting for the voice service to report the end of the media stream');
    }
    const recordingKey = answered ? await this.carrierRecordings.copy(call, before, attempt) : null;
    // Extraction talks to other services; it runs before the transaction so no lock waits on it.
    // Both on the agent's models, asked of the agents service once (and only when one of them needs a model).
    const models = this.models.chainFor(call);
    const extraction = answered ? await this.extraction.run(call, before, models) : null;
    const analysis = answered ? await this.analysis.run(call, before, models) : null;
    const hook = await this.hooks.resolve(call.partnerId, call.agentId, 'post_call');
    await this.dataSource.transaction(async (em) => {
      const session = await em.findOne(CallSession, {
        where: { callId },
        lock: { mode: 'pessimistic_write' },
      });
      if (!session || session.processingComplete) return;
      const duration = answered ? (call.durationSeconds ?? 0) : 0;
      if (recordingKey) session.recordingKey = recordingKey;
      session.hold = summarizeHold(session.holdEvents, call.endedAt);
      session.extraction = extraction;
      session.analysis = analysis;
      session.durationSeconds = duration;
      // creditsUsedPaise was fixed when the call ended (recordCallCharge); the event only repeats it.
      session.status = answered ? 'completed' : 'failed';
      session.processingComplete = true;
      session.pipelineCompletedAt = new Date();
      if (hook) session.postCallHook = pendingPostCallHook(hook.id);
      await em.save(session);
      const completed = await this.eventData(call, session, answered);
      await this.outbox.record(em, DomainEvents.sessionCompleted, call.partnerId, completed);
      // The hook runs after this commits, on its own queue: it never holds up session.completed.
      if (hook) await enqueuePostCallHook(em, call.id, hook.id, completed);
      await em.query(
        `UPDATE ${tableOf(em, 'post_call_jobs')} SET status = 'done', updated_at = now() WHERE call_id = $1`,
        [callId],
      );
    });
  }

  private async eventData(
    call: Call,
    session: CallSession,
    answered: boolean,
  ): Promise<SessionCompletedData> {
    const recording =
      call.agentSettings.enableRecording && session.recordingKey
        ? (await this.recordings.signedUrl(session.recordingKey, call.id)).url
        : null;
    return {
      session_id: session.sessionId,
      call_id: call.id,
      agent_id: call.agentId,
      agent_name: call.agentName,
      status: session.status,
      duration_seconds: session.durationSeconds,
      credits_used: paiseToInr(session.creditsUsedPaise),
      credits_used_paise: session.creditsUsedPaise,
      processing_complete: true,
      pipeline_completed_at: session.pipelineCompletedAt!.toISOString(),
      transcript: answered ? session.transcript : null,
      tool_calls: session.toolCalls ?? [],
      segments: session.segments ?? [],
      recording_url: recording,
      variables: call.variables,
      extraction: session.extraction,
      analysis: session.analysis ?? null,
      source: call.kind,
      browser_session_id: call.kind === 'browser' ? call.id : null,
      campaign_id: call.campaignId,
      project_id: call.projectId,
      bill_seconds: answered ? (call.billDurationSeconds ?? 0) : 0,
      billing_rate: call.billingRate,
      platform_speech_providers: call.platformSpeechProviders ?? [],
      // From the lines as they stand now: the stream's end report (who paid) came before, as for the speech.
      model_usage: answered ? callModelUsage(session.transcript, call.modelPaidBy) : [],
      hold: session.hold!,
      call: {
        call_id: call.id,
        direction: call.direction,
        from_number: call.fromNumber,
        to_number: call.toNumber,
        provider: call.provider,
        status: call.status,
        disposition: call.disposition,
        answered_by: call.answeredBy,
        end_call_reason: call.endCallReason,
        hangup_cause: call.hangupCause,
        hangup_source: call.hangupSource,
        client_reference_id: call.clientReferenceId,
        started_at: call.startedAt?.toISOString() ?? null,
        ended_at: call.endedAt?.toISOString() ?? null,
      },
    };
  }
}
