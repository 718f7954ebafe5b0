import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DomainEvent, DomainEvents } from '@vap/contracts';
import { OnDomainEvent } from '@vap/messaging';
import { EventFanOutService } from './event-fan-out.service';

/**
 * Durable JetStream consumers of the events partners can subscribe to, one per catalog type fed by the
 * stream. A redelivered event finds its inbox row, and (event, endpoint) is unique besides.
 */
@Injectable()
export class FanOutConsumers {
  constructor(private readonly fanOut: EventFanOutService) {}

  @OnDomainEvent(DomainEvents.callStatusUpdated)
  async onCallStatusUpdated(event: DomainEvent, em: EntityManager): Promise<void> {
    await this.fanOut.fanOut(em, 'call.status.updated', event);
  }

  @OnDomainEvent(DomainEvents.sessionCompleted)
  async onSessionCompleted(event: DomainEvent, em: EntityManager): Promise<void> {
    await this.fanOut.fanOut(em, 'session.completed', event);
  }

  @OnDomainEvent(DomainEvents.callTransferred)
  async onCallTransferred(event: DomainEvent, em: EntityManager): Promise<void> {
    await this.fanOut.fanOut(em, 'call.transferred', event);
  }

  @OnDomainEvent(DomainEvents.campaignStatusUpdated)
  async onCampaignStatusUpdated(event: DomainEvent, em: EntityManager): Promise<void> {
    await this.fanOut.fanOut(em, 'campaign.status.updated', event);
  }
}
