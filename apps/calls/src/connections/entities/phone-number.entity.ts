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

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt: Date;
}
