import { CallStatus } from '@vap/messages';
import { RawCarrierEvent } from './raw-carrier-event';

/** What stopped running a call: its end reason, the hang-up cause shown, and the progress event's name. */
export interface InterruptionCause {
  endCallReason: string;
  hangupCause: string;
  event: string;
  /** The error message of an unanswered call. */
  unansweredMessage: string;
}

/**
 * The end of a call whose process stopped running it (a voice replica that was lost): an answered
 * call completes and is billed for the seconds it ran; an unanswered one failed. The cause names why.
 */
export function interruptedEnd(
  call: {
    provider: RawCarrierEvent['provider'];
    status: CallStatus;
    /** How long the call ran by its own clock, or since its answer. */
    seconds: number | null;
  },
  cause: InterruptionCause,
): RawCarrierEvent {
  const answered = call.status === 'in_progress';
  const seconds = Math.max(1, Math.round(call.seconds ?? 0));
  return {
    provider: call.provider,
    kind: 'status',
    dedupeKey: cause.event,
    providerStatus: answered ? 'completed' : 'failed',
    providerEvent: cause.event,
    sequence: null,
    ended: true,
    occurredAt: new Date(),
    hangupSource: 'system',
    hangupCause: cause.hangupCause,
    endCallReason: cause.endCallReason,
    ...(answered
      ? { durationSeconds: seconds, billDurationSeconds: seconds }
      : { errorMessage: cause.unansweredMessage }),
  };
}
