import { AnsweredBy, AppError, HangupSource } from '@vap/messages';
import { CarrierCallState } from '../carrier-adapter';

/** carrier_a's HangupSource values in the platform's terms. */
export function hangupSourceOf(value: string | undefined): HangupSource | null {
  switch ((value ?? '').toLowerCase()) {
    case '':
      return null;
    case 'caller':
      return 'caller';
    case 'callee':
      return 'callee';
    case 'api request':
      return 'api';
    case 'answer xml':
      return 'system';
    case 'error':
      return 'error';
    case 'unknown':
      return 'unknown';
    default:
      // The carrier itself (named after the carrier in its payloads).
      return 'carrier';
  }
}

/** With machine detection on, carrier_a reports Machine=true/false. */
export function answeredByOf(machine: string | undefined): AnsweredBy | null {
  if (machine === 'true') return 'machine';
  if (machine === 'false') return 'human';
  return null;
}

/** carrier_a writes numbers without the plus (calls and messages alike); the platform stores E.164. */
export function e164Of(number: string): string {
  return number.startsWith('+') ? number : `+${number}`;
}

export function intOrNull(value: string | undefined): number | null {
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : null;
}

/** Callback kinds the adapter hands out: answer_url, ring_url, hangup_url. */
// transfer: the aleg_url of a cold transfer (its reply dials the number). machine: machine_detection_url,
// where machine detection answers asynchronously (Machine=true/false), after the call was answered.
export const CARRIER_A_EVENTS = ['answer', 'ring', 'hangup', 'transfer', 'machine'] as const;

/** CallStatus values that only a hangup callback carries. */
export const CARRIER_A_FINAL_STATUSES = [
  'completed',
  'busy',
  'failed',
  'timeout',
  'no-answer',
  'canceled',
  'cancel',
];

/** A call record's call_state, as the status its hangup callback would carry. */
const CARRIER_A_CALL_STATES: Record<string, string> = {
  ANSWER: 'completed',
  ANSWERED: 'completed',
  BUSY: 'busy',
  NO_ANSWER: 'no-answer',
  TIMEOUT: 'timeout',
  CANCEL: 'canceled',
  CANCELED: 'canceled',
  FAILED: 'failed',
};

/** Digits of a number, the way carrier_a writes them (without the plus). */
const digits = (n: unknown) => String(n ?? '').replace(/\D/g, '');

/**
 * A call record (`GET .../Call/{call_uuid}/`, present once the call ended) in the platform's terms. The
 * record must be the call's own: the leg id comes from a callback, so its numbers are compared too.
 */
export function carrierACallRecord(
  record: Record<string, unknown>,
  call: { fromNumber: string; toNumber: string },
): CarrierCallState {
  const numbers = [digits(record.from_number), digits(record.to_number)].sort().join();
  if (numbers !== [digits(call.fromNumber), digits(call.toNumber)].sort().join()) {
    throw AppError.downstream('carrier_a returned the record of another call');
  }
  const state = String(record.call_state ?? '').toUpperCase();
  const duration = intOrNull(String(record.call_duration ?? ''));
  const status =
    CARRIER_A_CALL_STATES[state] ?? ((duration ?? 0) > 0 || record.answer_time ? 'completed' : 'failed');
  return {
    live: false,
    providerStatus: status,
    durationSeconds: duration,
    billDurationSeconds: intOrNull(String(record.bill_duration ?? '')) ?? duration,
    hangupCause: typeof record.hangup_cause_name === 'string' ? record.hangup_cause_name : null,
  };
}
