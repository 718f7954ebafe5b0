import { Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AddressedSubjects, CallStatusUpdatedData, DomainEvent, DomainEvents } from '@vap/messages';
import { NoResponders, OnDomainEvent, RpcClient } from '@vap/messaging';
import { Call } from '../../../calls/entities/call.entity';
import { CallSession } from '../../../calls/entities/call-session.entity';
import { CarrierRegistry } from '../../../carriers/carrier-registry';
import { STALE_CALL_EVENT } from '../../../progress/stale-call-event';
import { liveSessionAsk } from '../../../calls/live-session-ask';
import { carrierCallOf } from '../../../carriers/carrier-call';
import { EndReasons } from '../../../progress/end-reasons';
import { TransferLegs } from '../../../carriers/transfer-legs/transfer-legs.service';

const isEnd = (event: DomainEvent) => (event.data as CallStatusUpdatedData).terminal === true;

/**
 * What still runs of a call that has ended ends with it. Whatever makes a call terminal (the carrier's
 * final status, a cancel, the stale sweeper, the balance guard, an operator, reconciliation) records
 * call.status_updated in the transaction that ends it; this durable consumer of those events, shared by
 * the calls replicas and redelivered until it succeeds, then:
 * - tells the voice replica holding the call's live media session to stop now (voice.session.terminate:
 *   no farewell, providers aborted, socket closed), so nothing the platform pays for runs after the end;
 * - hangs up at the carrier a call the platform ended without the carrier's word (the stale sweeper),
 *   which the carrier may still be carrying;
 * - hangs up the human's leg of a warm transfer still under way (the caller hung up while on hold).
 * All are safe to repeat: a session no replica holds answers no responders, a call gone at the carrier 404.
 */
@Injectable()
export class EndedCallFollowUp {
  private readonly logger = new Logger(EndedCallFollowUp.name);

  constructor(
    private readonly rpc: RpcClient,
    private readonly carriers: CarrierRegistry,
    private readonly transferLegs: TransferLegs,
  ) {}

  // Ends of different calls are independent, so a slow carrier or replica holds up only a few others; each
  // one in hand holds a pooled connection (the inbox's transaction) while it asks, hence only a few at once.
  @OnDomainEvent(DomainEvents.callStatusUpdated, {
    consumer: 'calls__call_ended',
    concurrency: 4,
    accepts: isEnd,
  })
  async onEnded(event: DomainEvent<CallStatusUpdatedData>, em: EntityManager): Promise<void> {
    const call = await em.findOne(Call, { where: { id: event.data.call_id } });
    if (!call) return;
    const session = await em.findOne(CallSession, {
      where: { callId: call.id },
      select: { mediaStream: true },
    });
    // Both are tried; a failure of either has the event come back for both.
    const failures: unknown[] = [];
    if (session?.mediaStream === 'live') await this.terminateSession(call).catch((e) => failures.push(e));
    if (event.data.provider_event === STALE_CALL_EVENT) {
      await this.carriers
        .get(call.provider)
        .hangup(carrierCallOf(call), EndReasons.staleCall)
        .catch((e) => failures.push(e));
    }
    await this.transferLegs.callEnded(call).catch((e) => failures.push(e));
    if (failures.length) throw failures[0];
  }

  private async terminateSession(call: Call): Promise<void> {
    try {
      const { terminated } = await this.rpc.request(
        AddressedSubjects.voice.sessionTerminate,
        call.partnerId,
        { callId: call.id },
        liveSessionAsk(call.id),
      );
      if (terminated) this.logger.log(`call ${call.id} ended (${call.status}); its voice session stopped`);
    } catch (err) {
      // No replica holds the session (it ended, or its replica is gone): nothing runs to stop.
      if (err instanceof NoResponders) return;
      this.logger.warn(`call ${call.id}: its voice session could not be stopped: ${(err as Error).message}`);
      throw err;
    }
  }
}
