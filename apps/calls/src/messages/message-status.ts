import { MessageStatus } from '@vap/api';

/** Error codes of the platform's own, for a message whose carrier never said what became of it. */
export const MessageErrors = {
  /** The carrier answered 4xx without a code of its own, or 2xx without the message's id. */
  refused: 'carrier_refused',
  /** The request went out but no answer came (or a 5xx): the carrier may have taken the message. */
  unanswered: 'carrier_unanswered',
  /** The carrier could not be reached after every attempt: nothing was sent. */
  unreachable: 'carrier_unreachable',
  /** The connection's credentials are gone, or the platform has no base URL for the carrier. */
  unavailable: 'carrier_unavailable',
} as const;

/**
 * The statuses a status may be reached from. Only forward: queued → sent → a final one; a message the platform
 * marked failed because the carrier's answer never came may still be settled by the carrier's own report.
 */
export function reachableFrom(next: MessageStatus): MessageStatus[] {
  switch (next) {
    case 'sent':
      return ['queued'];
    case 'delivered':
    case 'undelivered':
    case 'failed':
      return ['queued', 'sent'];
    default:
      return [];
  }
}

/** A failed message whose carrier may have taken it after all: its own callback settles it. */
export function outcomeWasUnknown(status: MessageStatus, errorCode: string | null): boolean {
  return status === 'failed' && errorCode === MessageErrors.unanswered;
}
