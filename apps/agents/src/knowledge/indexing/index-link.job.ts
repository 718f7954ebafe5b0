import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { DomainEvents } from '@vap/messages';
import { OutboxService } from '@vap/messaging';
import { tableOf } from '@vap/persistence';
import { Document } from '../../documents/entities/document.entity';
import { AgentDocument } from '../entities/agent-document.entity';
import { ClaimedKbJob, KbJobHandler } from '../jobs/kb-job';
import { replaceChunks } from './chunk-store';
import { DocumentTextService } from './document-text.service';
import { chunkText } from './text/chunk-text';
import { summarize } from './text/summarize';

/**
 * Indexes one agent-document link: extracts the document's text (PDF, HTML, plain text, or the crawled
 * page of a web link), chunks it, and stores the chunks for full-text search. The result commits together
 * with the end of the job, and not at all if the link was removed meanwhile.
 */
@Injectable()
export class IndexLinkJob implements KbJobHandler {
  readonly kind = 'index_link' as const;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly texts: DocumentTextService,
    private readonly outbox: OutboxService,
  ) {}

  async run(job: ClaimedKbJob, finish: (em: EntityManager) => Promise<void>): Promise<void> {
    const link = await this.dataSource.getRepository(AgentDocument).findOneBy({ id: job.linkId! });
    const document = link
      ? await this.dataSource.getRepository(Document).findOneBy({ id: link.documentId })
      : null;
    if (!link || link.unlinkedAt || !document || document.deletedAt) {
      await this.dataSource.transaction(finish);
      return;
    }
    await this.dataSource.query(
      `UPDATE ${tableOf(this.dataSource, 'agent_documents')} SET index_status = 'indexing', updated_at = now()
       WHERE id = $1 AND unlinked_at IS NULL`,
      [link.id],
    );

    const text = await this.texts.textOf(document, { partnerId: link.partnerId, agentId: link.agentId });
    const chunks = chunkText(text);
    const summary = summarize(text);

    await this.dataSource.transaction(async (em) => {
      await finish(em);
      const current = await em.findOne(AgentDocument, {
        where: { id: link.id },
        lock: { mode: 'pessimistic_write' },
      });
      if (!current || current.unlinkedAt) return;
      await replaceChunks(em, current, chunks);
      current.indexStatus = 'indexed';
      current.indexError = null;
      current.chunkCount = chunks.length;
      current.summary = summary;
      current.indexedAt = new Date();
      await em.save(current);
      await this.announce(em, current);
    });
  }

  async onRetry(job: ClaimedKbJob, error: string, em: EntityManager): Promise<void> {
    await em.query(
      `UPDATE ${tableOf(em, 'agent_documents')} SET index_status = 'pending', index_error = $2, updated_at = now()
       WHERE id = $1 AND unlinked_at IS NULL`,
      [job.linkId, error],
    );
  }

  async onGiveUp(job: ClaimedKbJob, error: string, em: EntityManager): Promise<void> {
    const link = await em.findOne(AgentDocument, {
      where: { id: job.linkId! },
      lock: { mode: 'pessimistic_write' },
    });
    if (!link || link.unlinkedAt) return;
    link.indexStatus = 'failed';
    link.indexError = error;
    await em.save(link);
    await this.announce(em, link);
  }

  private async announce(em: EntityManager, link: AgentDocument): Promise<void> {
    await this.outbox.record(em, DomainEvents.agentDocumentIndexed, link.partnerId, {
      agent_id: link.agentId,
      document_id: link.documentId,
      index_status: link.indexStatus,
      index_error: link.indexError,
      chunk_count: link.chunkCount,
    });
  }
}
