// How a call's transfer legs end: the rule both the carriers' leg callbacks and the call's own end apply.
import type { CallTransfer, CallTransferLeg } from '@vap/messages';

/** Whether a leg is connected: answered, or bridged to the other leg. */
export const isLiveLeg = (leg: CallTransferLeg): boolean =>
  leg.status === 'answered' || leg.status === 'bridged';

/**
 * The transfer as the call's end leaves it: a leg still live (answered, or bridged to the other) ends with the
 * call, `completed` at its end; legs that ended before keep their status and time. Null when nothing changes.
 */
export function legsEndedWithCall(transfer: CallTransfer | null, endedAt: Date): CallTransfer | null {
  const live = (leg: CallTransferLeg) => leg.ended_at === null && isLiveLeg(leg);
  if (!transfer?.legs.some(live)) return null;
  const at = endedAt.toISOString();
  return {
    ...transfer,
    legs: transfer.legs.map((leg) => (live(leg) ? { ...leg, status: 'completed', ended_at: at } : leg)),
  };
}
