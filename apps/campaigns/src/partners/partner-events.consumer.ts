import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { PartnerDto } from '@vap/api';
import { DomainEvent, DomainEvents, PartnerContext } from '@vap/messages';
import { OnDomainEvent } from '@vap/messaging';
import { PartnerSnapshots } from './partner-snapshots';

function contextOf(dto: PartnerDto): PartnerContext {
  return {
    id: dto.id,
    status: dto.status,
    voiceTier: dto.voice_tier,
    concurrencyLimit: dto.concurrency_limit,
    balancePaise: Math.round(dto.balance_inr * 100),
    // Events recorded before the rate card was carried: none (the platform's price).
    pricePerMinutePaise: dto.price_per_minute_inr == null ? null : Math.round(dto.price_per_minute_inr * 100),
    // Events recorded before partners had versions carry none: older than any versioned view.
    version: dto.version ?? 0,
  };
}

/** Partner events in order, one at a time; those waiting together share a transaction. */
const IN_ORDER = { batch: 32 };

/** Keeps partner snapshots current between partner requests (balance debits, limit and status changes). */
@Injectable()
export class PartnerEventsConsumer {
  constructor(private readonly snapshots: PartnerSnapshots) {}

  @OnDomainEvent(DomainEvents.partnerCreated, { consumer: 'campaigns__partner_created', ...IN_ORDER })
  async created(event: DomainEvent<PartnerDto>, em: EntityManager): Promise<void> {
    await this.snapshots.save(contextOf(event.data), em);
  }

  @OnDomainEvent(DomainEvents.partnerUpdated, { consumer: 'campaigns__partner_updated', ...IN_ORDER })
  async updated(event: DomainEvent<PartnerDto>, em: EntityManager): Promise<void> {
    await this.snapshots.save(contextOf(event.data), em);
  }
}
