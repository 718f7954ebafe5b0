import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AgentDeletedEvent } from '@vap/api';
import { DomainEvent, DomainEvents } from '@vap/messages';
import { OnDomainEvent } from '@vap/messaging';
import { tableOf } from '@vap/persistence';
import { KbJobsRepository } from './jobs/kb-jobs.repository';

/** A deleted agent's knowledge base goes away: its links are closed and their chunks purged in the background. */
@Injectable()
export class AgentDeletedConsumer {
  constructor(private readonly jobs: KbJobsRepository) {}

  @OnDomainEvent(DomainEvents.agentDeleted, { consumer: 'agents__knowledge__agent_deleted' })
  async onAgentDeleted(event: DomainEvent<AgentDeletedEvent>, em: EntityManager): Promise<void> {
    const [rows] = (await em.query(
      `UPDATE ${tableOf(em, 'agent_documents')} SET unlinked_at = now(), updated_at = now()
       WHERE agent_id = $1 AND unlinked_at IS NULL
       RETURNING id, partner_id`,
      [event.data.agent_id],
    )) as [{ id: string; partner_id: string }[], number];
    for (const row of rows)
      await this.jobs.enqueue(em, { kind: 'purge_link', partnerId: row.partner_id, linkId: row.id });
  }
}
