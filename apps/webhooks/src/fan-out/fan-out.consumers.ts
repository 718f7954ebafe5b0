import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DomainEvent, DomainEvents } from '@vap/contracts';
import { OnDomainEvent } from '@vap/messaging';
import { EventFanOutService } from './event-fan-out.service';

/** Events fanned out at once per type: deliveries of different events are independent of each other. */
const FAN_OUT_CONCURRENCY = 16;

/**
 * Durable JetStream consumers of the events partners can subscribe to, one per catalog type fed by the
 * stream. A redelivered event finds its inbox row, and (event, endpoint) is unique besides. Partners get no
 * ordering promise between deliveries (retries reorder them anyway), so events are handled concurrently.
 */
@Injectable()
export class FanOutConsumers {
  constructor(private readonly fanOut: EventFanOutService) {}

  @OnDomainEvent(DomainEvents.callStatusUpdated, { concurrency: FAN_OUT_CONCURRENCY })
  async onCallStatusUpdated(event: DomainEvent, em: EntityManager): Promise<void> {
    await this.fanOut.fanOut(em, 'call.status.updated', event);
  }

  @OnDomainEvent(DomainEvents.sessionCompleted, { concurrency: FAN_OUT_CONCURRENCY })
  async onSessionCompleted(event: DomainEvent, em: EntityManager): Promise<void> {
    await this.fanOut.fanOut(em, 'session.completed', event);
  }

  @OnDomainEvent(DomainEvents.callTransferred, { concurrency: FAN_OUT_CONCURRENCY })
  async onCallTransferred(event: DomainEvent, em: EntityManager): Promise<void> {
    await this.fanOut.fanOut(em, 'call.transferred', event);
  }

  @OnDomainEvent(DomainEvents.campaignStatusUpdated, { concurrency: FAN_OUT_CONCURRENCY })
  async onCampaignStatusUpdated(event: DomainEvent, em: EntityManager): Promise<void> {
    await this.fanOut.fanOut(em, 'campaign.status.updated', event);
  }
}
