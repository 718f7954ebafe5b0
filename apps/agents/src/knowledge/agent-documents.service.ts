import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager, In, IsNull } from 'typeorm';
import {
  AgentDocumentDto,
  AgentKnowledgeDocumentListDto,
  DocumentMessageDto,
  LinkAgentDocumentsDto,
} from '@vap/api';
import { AppError, DomainEvents, ErrorCode, isUuid } from '@vap/messages';
import { OutboxService } from '@vap/messaging';
import { tableOf } from '@vap/persistence';
import { findAgent } from '../agents/agent-locks';
import { invalidFields } from '../common/invalid-fields';
import { Document } from '../documents/entities/document.entity';
import { toAgentKnowledgeDocumentDto } from './agent-document-record';
import { AgentDocument } from './entities/agent-document.entity';
import { KbJobsRepository } from './jobs/kb-jobs.repository';

/**
 * Links between agents and documents. Linking queues the document's indexing for that agent; unlinking
 * takes it out of the agent's search at once and queues the removal of its chunks.
 */
@Injectable()
export class AgentDocumentsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly jobs: KbJobsRepository,
  ) {}

  async link(
    partnerId: string,
    agentId: string,
    input: LinkAgentDocumentsDto,
  ): Promise<AgentKnowledgeDocumentListDto> {
    const ids = [
      ...new Set([...(input.document_id ? [input.document_id] : []), ...(input.document_ids ?? [])]),
    ];
    if (!ids.length || ids.some((id) => !isUuid(id))) {
      throw invalidFields([
        {
          field: 'document_id',
          message: 'document_id must be a document id (UUID); send document_id or document_ids',
        },
      ]);
    }
    await this.dataSource.transaction(async (em) => {
      const agent = await findAgent(em, partnerId, agentId);
      const documents = await em.findBy(Document, { id: In(ids), partnerId, deletedAt: IsNull() });
      const missing = ids.filter((id) => !documents.some((d) => d.id === id));
      if (missing.length) throw AppError.notFound(`Document ${missing.join(', ')}`);
      const unconfirmed = documents.filter((d) => d.status !== 'ready');
      if (unconfirmed.length) {
        throw new AppError(
          ErrorCode.INVALID_STATE,
          `Document ${unconfirmed.map((d) => d.id).join(', ')} is still uploading: confirm it before linking`,
        );
      }
      // In the order asked for; clock_timestamp keeps that order in the agent's list. The partial unique
      // index makes a concurrent link of the same pair a no-op instead of a duplicate.
      for (const document of ids.map((id) => documents.find((d) => d.id === id)!)) {
        const inserted = (await em.query(
          `INSERT INTO ${tableOf(em, 'agent_documents')} (id, partner_id, agent_id, document_id, created_at)
           VALUES ($1, $2, $3, $4, clock_timestamp())
           ON CONFLICT (agent_id, document_id) WHERE unlinked_at IS NULL DO NOTHING
           RETURNING id`,
          [randomUUID(), partnerId, agent.id, document.id],
        )) as { id: string }[];
        if (!inserted.length) continue;
        await this.jobs.enqueue(em, { kind: 'index_link', partnerId, linkId: inserted[0].id });
        await this.outbox.record(em, DomainEvents.agentDocumentLinked, partnerId, {
          agent_id: agent.id,
          document_id: document.id,
        });
      }
    });
    return this.list(partnerId, agentId);
  }

  async unlink(partnerId: string, agentId: string, documentId: string): Promise<DocumentMessageDto> {
    return this.dataSource.transaction(async (em) => {
      const agent = await findAgent(em, partnerId, agentId);
      const [rows] = isUuid(documentId)
        ? ((await em.query(
            `UPDATE ${tableOf(em, 'agent_documents')} SET unlinked_at = now(), updated_at = now()
             WHERE agent_id = $1 AND document_id = $2 AND partner_id = $3 AND unlinked_at IS NULL
             RETURNING id`,
            [agent.id, documentId, partnerId],
          )) as [{ id: string }[], number])
        : [[]];
      if (!rows.length) throw AppError.notFound('Document linked to this agent');
      await this.jobs.enqueue(em, { kind: 'purge_link', partnerId, linkId: rows[0].id });
      await this.outbox.record(em, DomainEvents.agentDocumentUnlinked, partnerId, {
        agent_id: agent.id,
        document_id: documentId,
      });
      return {
        message:
          'Document unlinked from the agent; the document remains, its knowledge-base entries are removed in the background',
      };
    });
  }

  async list(partnerId: string, agentId: string): Promise<AgentKnowledgeDocumentListDto> {
    const agent = await findAgent(this.dataSource.manager, partnerId, agentId);
    const links = await this.liveLinks(this.dataSource.manager, partnerId, [agent.id]);
    return {
      agent_id: agent.id,
      documents: links.map(({ link, document }) => toAgentKnowledgeDocumentDto(link, document)),
    };
  }

  /** The documents linked to each of the agents, for the agent record (`documents`). */
  async linkedDocuments(
    em: EntityManager,
    partnerId: string,
    agentIds: string[],
  ): Promise<Map<string, AgentDocumentDto[]>> {
    const byAgent = new Map<string, AgentDocumentDto[]>(agentIds.map((id) => [id, []]));
    for (const { link, document } of await this.liveLinks(em, partnerId, agentIds)) {
      byAgent
        .get(link.agentId)
        ?.push({ id: document.id, name: document.name, type: document.type, status: document.status });
    }
    return byAgent;
  }

  private async liveLinks(
    em: EntityManager,
    partnerId: string,
    agentIds: string[],
  ): Promise<{ link: AgentDocument; document: Document }[]> {
    if (!agentIds.length) return [];
    const links = await em
      .getRepository(AgentDocument)
      .createQueryBuilder('l')
      .where('l.agent_id IN (:...agentIds)', { agentIds })
      .andWhere('l.partner_id = :partnerId', { partnerId })
      .andWhere('l.unlinked_at IS NULL')
      .orderBy('l.created_at', 'ASC')
      .addOrderBy('l.id', 'ASC')
      .getMany();
    if (!links.length) return [];
    const documents = await em.findBy(Document, {
      id: In([...new Set(links.map((l) => l.documentId))]),
      partnerId,
      deletedAt: IsNull(),
    });
    const byId = new Map(documents.map((d) => [d.id, d]));
    return links.flatMap((link) => {
      const document = byId.get(link.documentId);
      return document ? [{ link, document }] : [];
    });
  }
}
