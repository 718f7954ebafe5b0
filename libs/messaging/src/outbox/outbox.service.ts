import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { wakeAfterCommit } from '@vap/persistence';
import { DomainEvent, EventMap } from '@vap/messages';
import { RequestContext } from '../request-context';
import { OutboxRecord } from './outbox-record.entity';
import { outboxChannel } from './outbox-channel';

/**
 * Records domain events inside the caller's transaction. The event exists exactly when the state change
 * does; the relay publishes it after commit. The subject decides the payload's type (EventMap); M is another
 * map only in tests of this library, whose subjects are not the platform's.
 */
@Injectable()
export class OutboxService<M extends object = EventMap> {
  async record<S extends keyof M & string>(
    em: EntityManager,
    subject: S,
    partnerId: string | null,
    data: M[S],
  ): Promise<DomainEvent<M[S]>> {
    if (!em.queryRunner?.isTransactionActive) {
      throw new Error('OutboxService.record must run inside a transaction');
    }
    const event: DomainEvent<M[S]> = {
      id: randomUUID(),
      subject,
      partnerId,
      occurredAt: new Date().toISOString(),
      requestId: RequestContext.requestId(),
      data,
    };
    const { schema, tableName } = em.connection.getMetadata(OutboxRecord);
    const table = schema ? `"${schema}"."${tableName}"` : `"${tableName}"`;
    await em.query(`INSERT INTO ${table} (id, subject, event) VALUES ($1, $2, $3)`, [
      event.id,
      subject,
      event,
    ]);
    // This process's relay wakes at commit, exactly when the row is visible (other replicas' relays poll).
    wakeAfterCommit(em, outboxChannel(em.connection));
    return event;
  }
}
