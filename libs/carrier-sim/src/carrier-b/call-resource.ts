/**
 * carrier_b's Call resource as its REST API answers it (`GET .../Calls/{CallSid}.json`, and each item of the
 * `GET .../Calls.json` list): the fields the platform reads (sid, status, duration in whole seconds as a
 * string, null until the call ends; to, from, direction and date_created to find a placement again).
 */
export interface CarrierBCallResource {
  sid: string;
  account_sid: string;
  to: string;
  from: string;
  status: CarrierBCallStatus;
  direction: 'inbound' | 'outbound-api';
  duration: string | null;
  /** When the carrier created the call (RFC 2822), set at placement. */
  date_created: string;
  start_time: string | null;
  end_time: string | null;
  answered_by: string | null;
}

export type CarrierBCallStatus =
  | 'queued'
  | 'initiated'
  | 'ringing'
  | 'in-progress'
  | 'completed'
  | 'busy'
  | 'failed'
  | 'no-answer'
  | 'canceled';

export const CARRIER_B_FINAL_STATUSES: readonly CarrierBCallStatus[] = [
  'completed',
  'busy',
  'failed',
  'no-answer',
  'canceled',
];

/** carrier_b's RFC 2822 Timestamp of a callback or resource time. */
export function rfc2822(date: Date): string {
  return date.toUTCString().replace('GMT', '+0000');
}
