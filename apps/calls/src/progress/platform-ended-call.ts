import { CallDisposition, CallStatus, HangupSource } from '@vap/messages';
import { RawCarrierEvent } from './raw-carrier-event';

/** Error messages are stored up to this length. */
const MAX_ERROR_MESSAGE = 500;

/** How the platform itself decides a call ends: the status it ends in and why. */
export interface PlatformVerdict {
  status: 'completed' | 'failed' | 'canceled';
  hangupCause: string;
  /** Who hung up: the platform unless named (a carrier that refused the placement, say). */
  hangupSource?: HangupSource;
  endCallReason?: string;
  /** Cut to the stored length. */
  errorMessage?: string;
  disposition?: CallDisposition;
  durationSeconds?: number;
  billDurationSeconds?: number;
}

export type PlatformEnd = {
  /** provider_event of the end, and its dedupe key unless `dedupeKey` names another. */
  event: string;
  dedupeKey?: string;
  /** When the call ended: now unless given. */
  at?: Date;
} & (PlatformVerdict | RecordedEnd);

/** The carrier's record decides how the call ended: its status and details are filled in from it (reconciledEvent). */
interface RecordedEnd {
  status: null;
}

/**
 * The progress event of a call the platform ends rather than its carrier (a failed placement, a blocking
 * pre-call hook, a lost carrier call or voice replica, no final status in time), for CallProgressService.apply.
 */
export function platformEndedCall(
  call: Pick<RawCarrierEvent, 'provider'>,
  end: PlatformEnd,
): RawCarrierEvent {
  const event: RawCarrierEvent = {
    provider: call.provider,
    kind: 'status',
    dedupeKey: end.dedupeKey ?? end.event,
    providerStatus: end.status,
    providerEvent: end.event,
    sequence: null,
    ended: true,
    occurredAt: end.at ?? new Date(),
  };
  if (end.status === null) return event;
  event.hangupSource = end.hangupSource ?? 'system';
  event.hangupCause = end.hangupCause;
  if (end.endCallReason !== undefined) event.endCallReason = end.endCallReason;
  if (end.disposition !== undefined) event.disposition = end.disposition;
  if (end.durationSeconds !== undefined) event.durationSeconds = end.durationSeconds;
  if (end.billDurationSeconds !== undefined) event.billDurationSeconds = end.billDurationSeconds;
  if (end.errorMessage !== undefined) event.errorMessage = end.errorMessage.slice(0, MAX_ERROR_MESSAGE);
  return event;
}

/**
 * The verdict on a call the platform stopped carrying: an answered call completes (billed for `seconds` when
 * given, else by call progress from its answer to its end); an unanswered one failed, with `unansweredMessage`.
 */
export function completedIfAnswered(
  call: { status: CallStatus },
  unansweredMessage: string,
  seconds?: number | null,
): Pick<PlatformVerdict, 'status' | 'errorMessage' | 'durationSeconds' | 'billDurationSeconds'> {
  if (call.status !== 'in_progress') return { status: 'failed', errorMessage: unansweredMessage };
  if (seconds === undefined) return { status: 'completed' };
  const billed = Math.max(1, Math.round(seconds ?? 0));
  return { status: 'completed', durationSeconds: billed, billDurationSeconds: billed };
}
