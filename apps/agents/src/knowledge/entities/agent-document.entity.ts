import { Column, Entity, PrimaryColumn } from 'typeorm';
import { Timestamped } from '@vap/persistence';
import { KbIndexStatus } from '@vap/messages';

/**
 * A document linked to an agent, with the state of its indexing for that agent. Unlinking sets
 * unlinked_at at once (search stops using it); the cleanup job deletes the row and its chunks later.
 */
@Entity({ name: 'agent_documents' })
export class AgentDocument extends Timestamped {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ name: 'partner_id', type: 'uuid' })
  partnerId: string;

  @Column({ name: 'agent_id', type: 'uuid' })
  agentId: string;

  @Column({ name: 'document_id', type: 'uuid' })
  documentId: string;

  @Column({ name: 'index_status', type: 'text' })
  indexStatus: KbIndexStatus;

  @Column({ name: 'index_error', type: 'text', nullable: true })
  indexError: string | null;

  @Column({ name: 'chunk_count', type: 'integer' })
  chunkCount: number;

  /** The document's first sentences, computed at index time (kb_include_summaries). */
  @Column({ type: 'text', nullable: true })
  summary: string | null;

  @Column({ name: 'indexed_at', type: 'timestamptz', nullable: true })
  indexedAt: Date | null;

  @Column({ name: 'unlinked_at', type: 'timestamptz', nullable: true })
  unlinkedAt: Date | null;
}
