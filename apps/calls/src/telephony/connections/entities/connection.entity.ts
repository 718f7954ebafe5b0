import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** A partner's link to one carrier. Credentials of real carriers are stored beside it, encrypted. */
@Entity({ name: 'connections' })
export class Connection {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ name: 'partner_id', type: 'uuid' })
  partnerId: string;

  @Column('text')
  provider: string;

  @Column('text')
  name: string;

  @Column('text')
  status: 'active' | 'disabled';

  /** Set by DELETE /telephony-connections/{id}: the row stays for past calls; a PUT of its carrier revives it. */
  @Column({ name: 'deleted_at', type: 'timestamptz', precision: 3, nullable: true })
  deletedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt: Date;
}
