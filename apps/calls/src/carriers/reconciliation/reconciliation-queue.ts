import { RawCarrierEvent } from '../../progress/raw-carrier-event';
import { CallWorkQueue, QueuedCall } from '../../work-queue/call-work-queue';

/** Terminal callbacks waiting for the carrier's record to confirm them. */
export const CARRIER_RECONCILIATIONS: CallWorkQueue = {
  table: 'carrier_reconciliations',
  channel: 'calls_carrier_reconciliations',
  leaseSeconds: 60,
  columns: ['claimed_event'],
};

export interface QueuedReconciliation extends QueuedCall {
  claimed_event: RawCarrierEvent;
}
