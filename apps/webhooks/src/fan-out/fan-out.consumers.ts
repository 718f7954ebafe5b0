import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DomainEvent, DomainEvents } from '@vap/messages';
import { OnDomainEventBatch } from '@vap/messaging';
import { EventFanOutService } from './event-fan-out.service';

/**
 * Transactions at once per type, and events per transaction: deliveries of different events are
 * independent of each other, and a fan-out's time goes into round trips, which a batch shares.
 */
const FAN_OUT = { concurrency: 4, batch: 32 };

/**
 * Durable JetStream consumers of the events partners can subscribe to, one per catalog type fed by the
 * stream. A redelivered event finds its inbox row, and (event, endpoint) is unique besides. Events are
 * handled concurrently: the one order partners are promised, a call's statuses (and then its session) per
 * endpoint, is kept by the delivery queue (DeliveryQueueRepository), whatever order fan-out commits in.
 */
@Injectable()
export class FanOutConsumers {
  constructor(private readonly fanOut: EventFanOutService) {}

  @OnDomainEventBatch(DomainEvents.callStatusUpdated, FAN_OUT)
  async onCallStatusUpdated(events: DomainEvent[], em: EntityManager): Promise<void> {
    await this.fanOut.fanOut(em, 'call.status.updated', events);
  }

  @OnDomainEventBatch(DomainEvents.sessionCompleted, FAN_OUT)
  async onSessionCompleted(events: DomainEvent[], em: EntityManager): Promise<void> {
    await this.fanOut.fanOut(em, 'session.completed', events);
  }

  @OnDomainEventBatch(DomainEvents.callTransferred, FAN_OUT)
  async onCallTransferred(events: DomainEvent[], em: EntityManager): Promise<void> {
    await this.fanOut.fanOut(em, 'call.transferred', events);
  }

  @OnDomainEventBatch(DomainEvents.campaignStatusUpdated, FAN_OUT)
  async onCampaignStatusUpdated(events: DomainEvent[], em: EntityManager): Promise<void> {
    await this.fanOut.fanOut(em, 'campaign.status.updated', events);
  }

  @OnDomainEventBatch(DomainEvents.messageStatusUpdated, FAN_OUT)
  async onMessageStatusUpdated(events: DomainEvent[], em: EntityManager): Promise<void> {
    await this.fanOut.fanOut(em, 'message.status.updated', events);
  }

  @OnDomainEventBatch(DomainEvents.messageReceived, FAN_OUT)
  async onMessageReceived(events: DomainEvent[], em: EntityManager): Promise<void> {
    await this.fanOut.fanOut(em, 'message.received', events);
  }

  @OnDomainEventBatch(DomainEvents.customerConnectionUpdated, FAN_OUT)
  async onCustomerConnectionUpdated(events: DomainEvent[], em: EntityManager): Promise<void> {
    await this.fanOut.fanOut(em, 'customer_connection.updated', events);
  }
}
