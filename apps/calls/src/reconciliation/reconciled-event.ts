import { isTerminalStatus } from '@vap/contracts';
import { CarrierCallState, RawCarrierEvent } from '../carriers/carrier-adapter';
import { normalizeCarrierStatus } from '../carriers/status-normalization';

/** True when the event would end the call (release its slot and bill it) if applied as it is. */
export function claimsTerminal(event: RawCarrierEvent): boolean {
  if (event.kind !== 'status') return false;
  const status = normalizeCarrierStatus({
    status: event.providerStatus,
    event: event.providerEvent,
    ended: event.ended,
    hangupCause: event.hangupCause,
  });
  return status !== null && isTerminalStatus(status);
}

/** The claimed terminal event as the carrier's record has it: its final status and recorded times. */
export function reconciledEvent(
  claimed: RawCarrierEvent,
  state: Extract<CarrierCallState, { live: false }>,
  dedupeKey = claimed.dedupeKey,
): RawCarrierEvent {
  return {
    ...claimed,
    dedupeKey,
    providerStatus: state.providerStatus,
    ended: true,
    durationSeconds: state.durationSeconds,
    billDurationSeconds: state.billDurationSeconds ?? state.durationSeconds,
    hangupCause: claimed.hangupCause ?? state.hangupCause ?? null,
    reconciliation: 'verified',
  };
}
