import type { CallStatus } from '@vap/messages';

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

/**
 * Progress order: a call never moves to a status of a lower rank. All terminal statuses share the top
 * rank, so once one is reached no other status (terminal or not) replaces it.
 */
export function statusRank(status: CallStatus): number {
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

/** True when a call in `from` may move to `to`: strictly forward, never out of a terminal status. */
export function canMoveStatus(from: CallStatus, to: CallStatus): boolean {
  return statusRank(to) > statusRank(from);
}
