import { CALL_STATUSES, callStatusRank, type CallStatus } from '@vap/messages';

/**
 * Where a delivery stands among the deliveries of one call to its endpoint. Deliveries with the same key
 * go out one at a time in `seq` order (the claim holds a later one while an earlier one is queued,
 * being sent or retrying); `after` is the seq of the status the call left, whose delivery should be
 * queued first (see DeliveryQueueRepository.claim).
 */
export interface DeliveryOrder {
  key: string;
  seq: number;
  after: number | null;
}

/** session.completed comes after the call's last status. */
const SESSION_SEQ = 4;

/** A status's progress rank (the calls service's status machine), or null for a value that is not a status. */
const statusRank = (status: unknown): number | null =>
  typeof status === 'string' && (CALL_STATUSES as readonly string[]).includes(status)
    ? callStatusRank(status as CallStatus)
    : null;

/** The order of a delivery of this event, or null for events delivered without an order. */
export function deliveryOrder(eventType: string, data: unknown): DeliveryOrder | null {
  const d = (data ?? {}) as { call_id?: unknown; status?: unknown; previous_status?: unknown };
  if (typeof d.call_id !== 'string' || !d.call_id) return null;
  const key = `call:${d.call_id}`;
  if (eventType === 'session.completed') return { key, seq: SESSION_SEQ, after: null };
  if (eventType !== 'call.status.updated') return null;
  const seq = statusRank(d.status);
  if (seq === null) return null;
  const after = statusRank(d.previous_status);
  return { key, seq, after: after !== null && after < seq ? after : null };
}
