import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { DomainEvent } from '@vap/messages';

/** An event written in the same transaction as the state change it describes, waiting to be relayed. */
@Entity({ name: 'outbox' })
@Index('outbox_unpublished_idx', ['createdAt'], { where: 'published_at IS NULL' })
export class OutboxRecord {
  @PrimaryColumn('uuid')
  id: string;

  @Column('text')
  subject: string;

  @Column('jsonb')
  event: DomainEvent;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'published_at', type: 'timestamptz', nullable: true })
  publishedAt: Date | null;
}
