import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { PartnerDto } from '@vap/api';
import { DomainEvent, DomainEvents } from '@vap/messages';
import { OnDomainEvent } from '@vap/messaging';
import { PartnerBalances } from './partner-balances';
import { PartnerStanding } from './partner-standing';

/** Partner events in order, one at a time; those waiting together share a transaction. */
const IN_ORDER = { batch: 32 };

/**
 * The calls service's one reader of the gateway's partner events: keeps each partner's standing (may it
 * call) and balance (what its live calls may spend) current, each view ordered on its own terms.
 */
@Injectable()
export class PartnerEventsConsumer {
  constructor(
    private readonly standing: PartnerStanding,
    private readonly balances: PartnerBalances,
  ) {}

  @OnDomainEvent(DomainEvents.partnerCreated, { consumer: 'calls__partner_created', ...IN_ORDER })
  async created(event: DomainEvent<PartnerDto>, em: EntityManager): Promise<void> {
    await this.apply(event.data, em);
  }

  @OnDomainEvent(DomainEvents.partnerUpdated, { consumer: 'calls__partner_updated', ...IN_ORDER })
  async updated(event: DomainEvent<PartnerDto>, em: EntityManager): Promise<void> {
    await this.apply(event.data, em);
  }

  private async apply(partner: PartnerDto, em: EntityManager): Promise<void> {
    await this.standing.record(standingOf(partner), em, 'gateway');
    await this.balances.record(em, partner);
  }
}

function standingOf(dto: PartnerDto) {
  // Events recorded before partners had versions carry none: older than any versioned view.
  return {
    id: dto.id,
    status: dto.status,
    version: dto.version ?? 0,
    concurrencyLimit: dto.concurrency_limit,
    // Events recorded before the rate card was carried: none (the platform's price).
    pricePerMinutePaise: dto.price_per_minute_inr == null ? null : Math.round(dto.price_per_minute_inr * 100),
    resellerId: dto.reseller_id ?? null,
  };
}
