import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CallTransferredData, DomainEvents } from '@vap/messages';
import { isTerminalStatus } from '../../../calls/call-status-machine';
import { OutboxService } from '@vap/messaging';
import { Call } from '../../../calls/entities/call.entity';

/** Records a cold transfer of a live call to a human and announces it (call.transferred). */
@Injectable()
export class CallTransferService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
  ) {}

  /** False when the call had already ended: nothing to transfer. */
  async transfer(callId: string, to: string, reason: string): Promise<boolean> {
    return this.dataSource.transaction(async (em) => {
      const call = await em.findOne(Call, { where: { id: callId }, lock: { mode: 'pessimistic_write' } });
      if (!call || isTerminalStatus(call.status)) return false;
      call.endCallReason = 'transferred';
      await em.save(call);
      const data: CallTransferredData = {
        call_id: call.id,
        session_id: call.sessionId,
        agent_id: call.agentId,
        agent_name: call.agentName,
        client_reference_id: call.clientReferenceId,
        direction: call.direction,
        from_number: call.fromNumber,
        to_number: call.toNumber,
        transfer_to: to,
        transfer_type: 'cold',
        reason,
        provider: call.provider,
        occurred_at: new Date().toISOString(),
      };
      await this.outbox.record(em, DomainEvents.callTransferred, call.partnerId, data);
      return true;
    });
  }
}
