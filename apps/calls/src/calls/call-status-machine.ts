import { callStatusRank, type CallStatus } from '@vap/messages';

// The calls service alone moves a call through its statuses; other services only read them.
export const TERMINAL_CALL_STATUSES: readonly CallStatus[] = [
  'completed',
  'failed',
  'no_answer',
  'busy',
  'canceled',
];
export const ACTIVE_CALL_STATUSES: readonly CallStatus[] = ['pending', 'ringing', 'in_progress'];

/** The contract's table: terminal statuses are final and release the account's concurrency slot. */
export function isTerminalStatus(status: CallStatus): boolean {
  return TERMINAL_CALL_STATUSES.includes(status);
}

export function releasesConcurrency(status: CallStatus): boolean {
  return isTerminalStatus(status);
}

/** True when a call in `from` may move to `to`: strictly forward, never out of a terminal status. */
export function canMoveStatus(from: CallStatus, to: CallStatus): boolean {
  return callStatusRank(to) > callStatusRank(from);
}
