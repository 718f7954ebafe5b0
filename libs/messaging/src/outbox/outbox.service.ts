import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { DomainEvent } from '@vap/contracts';
import { RequestContext } from '../request-context';
import { OutboxRecord } from './outbox-record.entity';
import { outboxChannel } from './outbox-channel';

/**
 * Records domain events inside the caller's transaction. The event exists exactly when the state change
 * does; the relay publishes it after commit.
 */
@Injectable()
export class OutboxService {
  async record<T>(
    em: EntityManager,
    subject: string,
    partnerId: string | null,
    data: T,
  ): Promise<DomainEvent<T>> {
    if (!em.queryRunner?.isTransactionActive) {
      throw new Error('OutboxService.record must run inside a transaction');
    }
    const event: DomainEvent<T> = {
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
    // NOTIFY inside a transaction is delivered at commit, so the relay wakes exactly when the row is visible.
    await em.query('SELECT pg_notify($1, $2)', [outboxChannel(em.connection), event.id]);
    return event;
  }
}
