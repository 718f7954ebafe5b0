import { Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DomainEvent, DomainEvents, IntegrationLogEntry } from '@vap/messages';
import { OnDomainEvent } from '@vap/messaging';
import { IntegrationLogWriter } from './integration-log.writer';

/**
 * Stores the requests other services made to partners' systems (inbound decisions, lifecycle hooks) in
 * the integration log, in the transaction of the inbox row.
 */
@Injectable()
export class RequestLoggedConsumer {
  private readonly logger = new Logger(RequestLoggedConsumer.name);

  constructor(private readonly writer: IntegrationLogWriter) {}

  // Entries are independent of each other and each is one insert: a batch saves round trips.
  @OnDomainEvent(DomainEvents.integrationRequestLogged, { batch: 32 })
  async onRequestLogged(event: DomainEvent<IntegrationLogEntry>, em: EntityManager): Promise<void> {
    // The event's partner is the one its recorder's outbox wrote; an entry naming another is not stored.
    if (!event.partnerId || event.partnerId !== event.data.partnerId) {
      this.logger.warn(
        `integration log entry ${event.data.id} names another partner than its event; dropped`,
      );
      return;
    }
    await this.writer.record(event.data, em);
  }
}
