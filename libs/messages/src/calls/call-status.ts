/** Call status values of the contract, in the order a call can move through them. */
export const CALL_STATUSES = [
  'pending',
  'ringing',
  'in_progress',
  'completed',
  'failed',
  'no_answer',
  'busy',
  'canceled',
] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];

/**
 * A call's progress rank: a call only ever moves to a higher one, so the rank orders one call's statuses
 * whatever clocks stamped them. All terminal statuses share the top rank: once one is reached no other status
 * (terminal or not) follows it.
 */
export function callStatusRank(status: CallStatus): number {
  switch (status) {
    case 'pending':
      return 0;
    case 'ringing':
      return 1;
    case 'in_progress':
      return 2;
    default:
      return 3;
  }
}

export const CALL_DISPOSITIONS = [
  'completed',
  'voicemail',
  'user_hangup_no_speech',
  'no_answer',
  'busy',
  'canceled',
  'blocked',
  'failed',
  'transferred',
] as const;
export type CallDisposition = (typeof CALL_DISPOSITIONS)[number];

export const ANSWERED_BY_VALUES = ['human', 'machine', 'unknown', 'not_answered'] as const;
export type AnsweredBy = (typeof ANSWERED_BY_VALUES)[number];

export const HANGUP_SOURCES = ['caller', 'callee', 'system', 'api', 'carrier', 'error', 'unknown'] as const;
export type HangupSource = (typeof HANGUP_SOURCES)[number];

export const CALL_DIRECTIONS = ['outbound', 'inbound'] as const;
export type CallDirection = (typeof CALL_DIRECTIONS)[number];

/**
 * Provider values this platform produces. The contract lists sip plus seven carrier identifiers, naming
 * only carrier_a and carrier_b; reseller-link and the platform's own sandbox carrier are the others
 * implemented here.
 */
export const CALL_PROVIDERS = [
  'sip',
  'carrier_a',
  'carrier_b',
  'reseller-link',
  'sandbox',
  'browser',
] as const;
export type CallProvider = (typeof CALL_PROVIDERS)[number];

/** What a call row is: a phone call on a carrier, or a browser voice session (provider `browser`, no carrier). */
export const CALL_KINDS = ['phone', 'browser'] as const;
export type CallKind = (typeof CALL_KINDS)[number];

/** A browser voice session's public status (its call row's status, read for a session). */
export const BROWSER_SESSION_STATUSES = ['pending', 'active', 'completed', 'expired', 'failed'] as const;
export type BrowserSessionStatus = (typeof BROWSER_SESSION_STATUSES)[number];

/** How a call was handed to a human: cold (the carrier dials the human on the call's own leg). */
export const TRANSFER_TYPES = ['cold', 'warm'] as const;
export type TransferType = (typeof TRANSFER_TYPES)[number];

/**
 * How a transfer ended: bridged (the caller was handed to the human's leg; for a cold transfer, the carrier took
 * the call to dial the number), no_answer (the human's leg was not answered: no answer, busy), declined (the human
 * answered and refused), failed (the carrier refused or could not place it).
 */
export const TRANSFER_OUTCOMES = ['bridged', 'no_answer', 'declined', 'failed'] as const;
export type TransferOutcome = (typeof TRANSFER_OUTCOMES)[number];
