import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { DomainEvent, DomainEvents, SessionCompletedData } from '@vap/contracts';
import { OnDomainEvent, OutboxService } from '@vap/messaging';
import { toPartnerDto } from '../accounts/partners.service';
import { LedgerEntry } from '../accounts/entities/ledger-entry.entity';
import { Partner } from '../accounts/entities/partner.entity';

/**
 * Debits each completed session's charge from the partner's balance, with its ledger entry, in the
 * transaction of the inbox row: a redelivered event finds the row and debits nothing twice. The balance
 * never goes below zero; a charge larger than what is left takes the rest and the ledger says so.
 */
@Injectable()
export class CallChargesConsumer {
  private readonly logger = new Logger(CallChargesConsumer.name);

  constructor(private readonly outbox: OutboxService) {}

  @OnDomainEvent(DomainEvents.sessionCompleted)
  async charge(event: DomainEvent<SessionCompletedData>, em: EntityManager): Promise<void> {
    const cost = event.data.credits_used_paise;
    if (!event.partnerId || !(cost > 0)) return;
    const partner = await em.findOne(Partner, {
      where: { id: event.partnerId },
      lock: { mode: 'pessimistic_write' },
    });
    if (!partner) {
      this.logger.warn(
        `session ${event.data.session_id}: partner ${event.partnerId} not found; charge dropped`,
      );
      return;
    }
    const debit = Math.min(cost, partner.balancePaise);
    if (debit < cost) {
      this.logger.warn(
        `session ${event.data.session_id}: charge ${cost} paise exceeds balance ${partner.balancePaise}`,
      );
    }
    partner.balancePaise -= debit;
    await em.save(partner);
    await em.insert(LedgerEntry, {
      id: randomUUID(),
      partnerId: partner.id,
      amountPaise: -debit,
      balanceAfterPaise: partner.balancePaise,
      reason: debit < cost ? `call_charge (short by ${cost - debit} paise)` : 'call_charge',
      reference: `call:${event.data.call_id}`,
    });
    await this.outbox.record(em, DomainEvents.partnerUpdated, partner.id, toPartnerDto(partner));
  }
}
