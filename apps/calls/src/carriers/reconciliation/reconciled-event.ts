import { isTerminalStatus } from '../../calls/call-status-machine';
import { CarrierCallState } from '../carrier-adapter';
import { RawCarrierEvent } from '../../progress/raw-carrier-event';
import { normalizeCarrierStatus } from '../../progress/status-normalization';

/** The call status a status event would move the call to, as call progress reads it. */
function claimedStatus(event: RawCarrierEvent) {
  return normalizeCarrierStatus({
    status: event.providerStatus,
    event: event.providerEvent,
    ended: event.ended,
    hangupCause: event.hangupCause,
  });
}

/** True when the event would end the call (release its slot and bill it) if applied as it is. */
export function claimsTerminal(event: RawCarrierEvent): boolean {
  if (event.kind !== 'status') return false;
  const status = claimedStatus(event);
  return status !== null && isTerminalStatus(status);
}

/**
 * The claimed terminal event as the carrier's record has it: its final status and recorded times. The
 * callback's account of how the call ended (hangup cause and source, error, disposition) stays only when the
 * record agrees with its status: a "busy" hangup on a call the carrier says was answered and completed
 * keeps none of its busy details.
 */
export function reconciledEvent(
  claimed: RawCarrierEvent,
  state: Extract<CarrierCallState, { live: false }>,
  dedupeKey = claimed.dedupeKey,
): RawCarrierEvent {
  const recorded = claimedStatus({
    ...claimed,
    providerStatus: state.providerStatus,
    ended: true,
    hangupCause: state.hangupCause ?? null,
  });
  const agrees = recorded !== null && recorded === claimedStatus(claimed);
  return {
    ...claimed,
    dedupeKey,
    providerStatus: state.providerStatus,
    ended: true,
    durationSeconds: state.durationSeconds,
    billDurationSeconds: state.billDurationSeconds ?? state.durationSeconds,
    hangupCause: state.hangupCause ?? (agrees ? (claimed.hangupCause ?? null) : null),
    ...(agrees ? {} : { hangupSource: null, errorMessage: null, disposition: null }),
    reconciliation: 'verified',
  };
}
