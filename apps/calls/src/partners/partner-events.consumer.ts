import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DomainEvent, DomainEvents, PartnerDto } from '@vap/contracts';
import { OnDomainEvent } from '@vap/messaging';
import { PartnerStanding } from './partner-standing';

/** Keeps each partner's standing current from the gateway's partner events (status changes above all). */
@Injectable()
export class PartnerEventsConsumer {
  constructor(private readonly standing: PartnerStanding) {}

  @OnDomainEvent(DomainEvents.partnerCreated, { consumer: 'calls__partner_created' })
  async created(event: DomainEvent<PartnerDto>, em: EntityManager): Promise<void> {
    await this.standing.record(standingOf(event.data), em);
  }

  @OnDomainEvent(DomainEvents.partnerUpdated, { consumer: 'calls__partner_updated' })
  async updated(event: DomainEvent<PartnerDto>, em: EntityManager): Promise<void> {
    await this.standing.record(standingOf(event.data), em);
  }
}

function standingOf(dto: PartnerDto) {
  // Events recorded before partners had versions carry none: older than any versioned view.
  return { id: dto.id, status: dto.status, version: dto.version ?? 0 };
}
