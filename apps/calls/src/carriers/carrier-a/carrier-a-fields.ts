import { AnsweredBy, HangupSource } from '@vap/contracts';

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

export function intOrNull(value: string | undefined): number | null {
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : null;
}

/** Callback kinds the adapter hands out: answer_url, ring_url, hangup_url. */
export const CARRIER_A_EVENTS = ['answer', 'ring', 'hangup'] as const;

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
