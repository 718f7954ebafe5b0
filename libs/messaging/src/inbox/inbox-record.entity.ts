import { CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** Marks an event as handled by one consumer, so a redelivery has no second effect. */
@Entity({ name: 'inbox' })
export class InboxRecord {
  @PrimaryColumn('text')
  consumer: string;

  @PrimaryColumn({ name: 'event_id', type: 'uuid' })
  eventId: string;

  @CreateDateColumn({ name: 'processed_at', type: 'timestamptz' })
  processedAt: Date;
}
