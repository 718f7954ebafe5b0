import { CallStatus } from '@vap/contracts';
import { RawCarrierEvent } from '../carriers/carrier-adapter';
import { EndReasons } from './end-reasons';

/**
 * The end of a call whose process stopped running it (a replica that crashed or shut down): an answered
 * call completes and is billed for the seconds it ran; an unanswered one failed. Either way the reason
 * is platform_interrupted.
 */
export function interruptedEnd(call: {
  provider: RawCarrierEvent['provider'];
  status: CallStatus;
  /** How long the call ran by its own clock, or since its answer. */
  seconds: number | null;
}): RawCarrierEvent {
  const answered = call.status === 'in_progress';
  const seconds = Math.max(1, Math.round(call.seconds ?? 0));
  return {
    provider: call.provider,
    kind: 'status',
    dedupeKey: 'platform-interrupted',
    providerStatus: answered ? 'completed' : 'failed',
    providerEvent: 'platform-interrupted',
    sequence: null,
    ended: true,
    occurredAt: new Date(),
    hangupSource: 'system',
    hangupCause: 'CALL_OWNER_LOST',
    endCallReason: EndReasons.platformInterrupted,
    ...(answered
      ? { durationSeconds: seconds, billDurationSeconds: seconds }
      : { errorMessage: 'The platform stopped running the call before it was answered' }),
  };
}
