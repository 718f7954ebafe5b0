import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** A caller ID of the partner on one connection; the default one is used when a start names none. */
@Entity({ name: 'phone_numbers' })
export class PhoneNumber {
  /** `pn_<uuid>` */
  @PrimaryColumn('text')
  id: string;

  @Column({ name: 'partner_id', type: 'uuid' })
  partnerId: string;

  @Column('text')
  number: string;

  @Column({ name: 'connection_id', type: 'uuid' })
  connectionId: string;

  @Column('text')
  provider: string;

  @Column({ name: 'is_default', type: 'boolean' })
  isDefault: boolean;

  @Column('text')
  status: 'active' | 'inactive';

  @Column({ type: 'text', nullable: true })
  label: string | null;

  /** The agent that answers inbound calls on this number. */
  @Column({ name: 'agent_id', type: 'uuid', nullable: true })
  agentId: string | null;

  /** The carrier application the number is assigned to; detached (best effort) before deletion. */
  @Column({ name: 'application_id', type: 'text', nullable: true })
  applicationId: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt: Date;
}
