import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CallTransfer, DomainEvents } from '@vap/messages';
import { OutboxService } from '@vap/messaging';
import { Call } from '../../../calls/entities/call.entity';
import {
  callerLeg,
  platformNumberOf,
  transferredData,
} from '../../../carriers/transfer-legs/transfer-record';

/** What the carrier was asked, and when: the transfer the call records. */
export interface ColdTransfer {
  to: string;
  reason: string;
  /** When the agent's request reached the platform (before the carrier was asked). */
  requestedAt: Date;
  /** When the carrier took the call. */
  bridgedAt: Date;
}

/**
 * A cold transfer as the call records it: the caller's leg handed by the carrier to the human's number, which the
 * carrier dials on that same leg (so the human's leg has no id or answer of its own to report).
 */
export function coldTransferOf(call: Call, transfer: ColdTransfer): CallTransfer {
  const bridgedAt = transfer.bridgedAt.toISOString();
  return {
    transfer_type: 'cold',
    to_number: transfer.to,
    reason: transfer.reason,
    outcome: 'bridged',
    requested_at: transfer.requestedAt.toISOString(),
    answered_at: null,
    bridged_at: bridgedAt,
    legs: [
      callerLeg(call, 'bridged'),
      {
        role: 'human',
        carrier_call_id: null,
        // The carrier dials the human from the number the call shows the caller: the platform's number.
        from_number: platformNumberOf(call),
        to_number: transfer.to,
        status: 'carrier_dialed',
        started_at: bridgedAt,
        answered_at: null,
        ended_at: null,
      },
    ],
  };
}

/** Records a cold transfer of a live call to a human and announces it (call.transferred). */
@Injectable()
export class CallTransferService {
  constructor(private readonly outbox: OutboxService) {}

  /**
   * In the caller's transaction, on the call it holds locked (pessimistic_write): the carrier's final status
   * waits for this record, so a transferred call always ends as one.
   */
  async record(em: EntityManager, call: Call, transfer: ColdTransfer): Promise<void> {
    call.endCallReason = 'transferred';
    const record = coldTransferOf(call, transfer);
    call.transfer = record;
    await em.save(call);
    await this.outbox.record(em, DomainEvents.callTransferred, call.partnerId, transferredData(call, record));
  }
}
