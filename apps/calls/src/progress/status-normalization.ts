import { CallStatus } from '@vap/messages';

/** A carrier's raw status signal, as its adapter read it from a callback. */
export interface RawStatusSignal {
  /** Raw status value (CallStatus, call_status, Status...). */
  status: string | null;
  /** Raw event name, for carriers that signal by event (the reseller link's "answered"). */
  event?: string | null;
  /** The carrier says the call has ended (a hangup/lifecycle-end payload). */
  ended?: boolean;
  /** The carrier's terminal cause, for lifecycle payloads whose status alone is not specific. */
  hangupCause?: string | null;
}

/** Case and separators vary between carriers: "No Answer", "no_answer" and "no-answer" are one value. */
function canonical(value: string | null | undefined): string {
  return (value ?? '')
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-');
}

/** Raw values with one meaning whatever the carrier (the contract's normalization table). */
const DIRECT: Record<string, CallStatus> = {
  initiated: 'pending',
  // carrier_b reports queued before initiated; it means the same: accepted, no progress yet.
  queued: 'pending',
  ringing: 'ringing',
  'in-progress': 'in_progress',
  completed: 'completed',
  busy: 'busy',
  'no-answer': 'no_answer',
  canceled: 'canceled',
  cancelled: 'canceled',
  cancel: 'canceled',
  failed: 'failed',
  timeout: 'failed',
  error: 'failed',
  rejected: 'failed',
};

/** Terminal carrier causes of a lifecycle payload: busy, canceled, or else failed. */
export function statusOfTerminalCause(cause: string | null | undefined): CallStatus {
  const c = canonical(cause);
  if (/busy/.test(c)) return 'busy';
  if (/cancel/.test(c)) return 'canceled';
  return 'failed';
}

/**
 * The contract's normalization of carrier values to a call status. Null when the signal carries no
 * status (for example a hold notification), so the caller changes nothing.
 */
export function normalizeCarrierStatus(signal: RawStatusSignal): CallStatus | null {
  const status = canonical(signal.status);
  const event = canonical(signal.event);
  // "answered" (call-progress event, the reseller link's answered event, a lifecycle call_status
  // Answered): live it is in_progress, after hangup the answered call completed.
  if (status === 'answered' || (!status && event === 'answered')) {
    return signal.ended ? 'completed' : 'in_progress';
  }
  if (status === 'missed') return 'no_answer';
  const direct = DIRECT[status];
  if (direct) return direct;
  if (status && signal.ended) return statusOfTerminalCause(signal.hangupCause ?? status);
  if (!status && signal.ended && signal.hangupCause) return statusOfTerminalCause(signal.hangupCause);
  return null;
}
