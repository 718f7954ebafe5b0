import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { MessageCarrier, MessageDirection, MessageStatus } from '@vap/api';

/**
 * An SMS of the account, sent or received on one of its connections. An outbound row is also its own outbox
 * entry: while queued with a send_after, the send worker claims it and hands it to the carrier.
 */
@Entity({ name: 'messages' })
export class Message {
  /** `msg_<uuid>` */
  @PrimaryColumn('text')
  id: string;

  @Column({ name: 'partner_id', type: 'uuid' })
  partnerId: string;

  @Column('text')
  direction: MessageDirection;

  @Column('text')
  status: MessageStatus;

  @Column({ name: 'to_number', type: 'text' })
  toNumber: string;

  @Column({ name: 'from_number', type: 'text' })
  fromNumber: string;

  @Column('text')
  body: string;

  @Column('int')
  segments: number;

  @Column('text')
  provider: MessageCarrier;

  @Column({ name: 'connection_id', type: 'uuid' })
  connectionId: string;

  @Column({ name: 'carrier_message_id', type: 'text', nullable: true })
  carrierMessageId: string | null;

  @Column({ name: 'error_code', type: 'text', nullable: true })
  errorCode: string | null;

  @Column({ name: 'error_message', type: 'text', nullable: true })
  errorMessage: string | null;

  @Column({ name: 'call_id', type: 'uuid', nullable: true })
  callId: string | null;

  @Column({ name: 'agent_id', type: 'uuid', nullable: true })
  agentId: string | null;

  /** When the send worker may claim it next (null: not waiting to be sent). */
  @Column({ name: 'send_after', type: 'timestamptz', precision: 3, nullable: true })
  sendAfter: Date | null;

  @Column({ name: 'send_attempts', type: 'int' })
  sendAttempts: number;

  @Column({ name: 'sent_at', type: 'timestamptz', precision: 3, nullable: true })
  sentAt: Date | null;

  @Column({ name: 'delivered_at', type: 'timestamptz', precision: 3, nullable: true })
  deliveredAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt: Date;
}
