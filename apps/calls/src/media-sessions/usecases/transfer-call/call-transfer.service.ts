import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CallTransfer, DomainEvents } from '@vap/messages';
import { isTerminalStatus } from '../../../calls/call-status-machine';
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
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
  ) {}

  /** False when the call had already ended: nothing to transfer. */
  async transfer(callId: string, transfer: ColdTransfer): Promise<boolean> {
    return this.dataSource.transaction(async (em) => {
      const call = await em.findOne(Call, { where: { id: callId }, lock: { mode: 'pessimistic_write' } });
      if (!call || isTerminalStatus(call.status)) return false;
      call.endCallReason = 'transferred';
      const record = coldTransferOf(call, transfer);
      call.transfer = record;
      await em.save(call);
      await this.outbox.record(
        em,
        DomainEvents.callTransferred,
        call.partnerId,
        transferredData(call, record),
      );
      return true;
    });
  }
}
