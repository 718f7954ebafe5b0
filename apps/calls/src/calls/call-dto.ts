import { CallDto, CallSessionDto } from '@vap/api';
import { summarizeHold } from './hold-summary';
import { callModelUsage } from './model-usage';
import { Call, carrierConnectionOf } from './entities/call.entity';
import { CallSession } from './entities/call-session.entity';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Credits in INR from paise, exact to the paisa. */
export const paiseToInr = (paise: number) => paise / 100;

/** Answered calls have a transcript (possibly empty); a call that was never answered has none. */
function transcriptOf(call: Call, session: CallSession): CallSessionDto['transcript'] {
  return call.startedAt || session.transcript.length ? session.transcript : null;
}

/** The session part of a call (also a browser session's `session`). */
export function toCallSessionDto(
  call: Call,
  session: CallSession,
  recordingUrl: string | null,
): CallSessionDto {
  const sessionDto: CallSessionDto = {
    session_id: session.sessionId,
    status: session.status,
    duration_seconds: session.durationSeconds,
    credits_used: paiseToInr(session.creditsUsedPaise),
    processing_complete: session.processingComplete,
    pipeline_completed_at: iso(session.pipelineCompletedAt),
    transcript: transcriptOf(call, session),
    tool_calls: session.toolCalls ?? [],
    segments: session.segments ?? [],
    variables: call.variables,
    extraction: session.extraction,
    analysis: session.analysis ?? null,
    hold: session.hold ?? summarizeHold(session.holdEvents, call.endedAt),
    post_call_hook: session.postCallHook,
    started_at: iso(session.startedAt),
    ended_at: iso(session.endedAt),
  };
  if (call.agentSettings.enableRecording && recordingUrl) sessionDto.recording_url = recordingUrl;
  return sessionDto;
}

export function toCallDto(call: Call, session: CallSession, recordingUrl: string | null): CallDto {
  const sessionDto = toCallSessionDto(call, session, recordingUrl);
  return {
    call_id: call.id,
    agent_id: call.agentId,
    session_id: call.sessionId,
    direction: call.direction,
    from_number: call.fromNumber,
    to_number: call.toNumber,
    status: call.status,
    disposition: call.disposition,
    answered_by: call.answeredBy,
    end_call_reason: call.endCallReason,
    hangup_cause: call.hangupCause,
    hangup_source: call.hangupSource,
    bill_duration_seconds: call.billDurationSeconds,
    duration_seconds: call.durationSeconds,
    carrier_reconciliation: call.carrierReconciliation,
    provider: call.provider,
    connection_id: carrierConnectionOf(call),
    error_message: call.errorMessage,
    client_reference_id: call.clientReferenceId,
    customer_id: call.customerId ?? null,
    started_at: iso(call.startedAt),
    ended_at: iso(call.endedAt),
    created_at: call.createdAt.toISOString(),
    platform_speech_providers: call.platformSpeechProviders ?? [],
    model_usage: callModelUsage(session.transcript, call.modelPaidBy),
    transfer: call.transfer ?? null,
    session: sessionDto,
  };
}
