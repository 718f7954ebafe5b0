import { AnsweredBy, AppError } from '@vap/messages';
import { CarrierCallState } from '../carrier-adapter';

/** carrier_b's AnsweredBy (machine detection) in the platform's terms. */
export function answeredByOf(value: string | undefined): AnsweredBy | null {
  if (!value) return null;
  if (value === 'human') return 'human';
  if (value === 'unknown') return 'unknown';
  if (value.startsWith('machine') || value === 'fax') return 'machine';
  return null;
}

export function intOrNull(value: string | undefined): number | null {
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : null;
}

/** Timestamp is RFC 2822; a missing or unreadable one means "now". */
export function occurredAtOf(value: string | undefined): Date {
  const time = value ? Date.parse(value) : NaN;
  return Number.isNaN(time) ? new Date() : new Date(time);
}

/**
 * The callbacks a carrier_b call gets: its answer URL, status callback and AMD result, and (`inbound`) the
 * number's voice URL, which an inbound call's later webhooks reach.
 */
export const CARRIER_B_EVENTS = ['answer', 'status', 'amd', 'inbound'] as const;

export const CARRIER_B_FINAL_STATUSES = ['completed', 'busy', 'no-answer', 'failed', 'canceled'];

/** Raw call statuses of a call that has not ended yet. */
export const CARRIER_B_LIVE_STATUSES = ['queued', 'initiated', 'ringing', 'in-progress'];

/** The Call resource (`GET .../Calls/{CallSid}.json`) in the platform's terms. */
export function carrierBCallState(resource: { status: string; duration?: unknown }): CarrierCallState {
  if (!CARRIER_B_FINAL_STATUSES.includes(resource.status)) {
    if (!CARRIER_B_LIVE_STATUSES.includes(resource.status))
      throw AppError.downstream(`carrier_b reported an unknown call status ${resource.status.slice(0, 40)}`);
    return { live: true, providerStatus: resource.status };
  }
  // duration is a string of seconds (null until the call ends); billing is per second on it.
  const duration =
    resource.duration === null || resource.duration === undefined ? undefined : String(resource.duration);
  const seconds = intOrNull(duration);
  return {
    live: false,
    providerStatus: resource.status,
    durationSeconds: seconds,
    billDurationSeconds: seconds,
  };
}
