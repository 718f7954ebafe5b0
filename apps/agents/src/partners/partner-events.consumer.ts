import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { PartnerDto } from '@vap/api';
import { DomainEvent, DomainEvents } from '@vap/messages';
import { OnDomainEvent } from '@vap/messaging';
import { PartnerTier, PartnerTiers } from './partner-tiers';

function tierOf(dto: PartnerDto): PartnerTier {
  // Events recorded before partners had versions carry none: older than any versioned view.
  return { partnerId: dto.id, voiceTier: dto.voice_tier, version: dto.version ?? 0 };
}

/** Partner events in order, one at a time; those waiting together share a transaction. */
const IN_ORDER = { batch: 32 };

/** Keeps each partner's voice tier current for commands that come without a partner snapshot. */
@Injectable()
export class PartnerEventsConsumer {
  constructor(private readonly tiers: PartnerTiers) {}

  @OnDomainEvent(DomainEvents.partnerCreated, { consumer: 'agents__partner_created', ...IN_ORDER })
  async created(event: DomainEvent<PartnerDto>, em: EntityManager): Promise<void> {
    await this.tiers.save(tierOf(event.data), em);
  }

  @OnDomainEvent(DomainEvents.partnerUpdated, { consumer: 'agents__partner_updated', ...IN_ORDER })
  async updated(event: DomainEvent<PartnerDto>, em: EntityManager): Promise<void> {
    await this.tiers.save(tierOf(event.data), em);
  }
}
