import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { DoNotCallKind, DoNotCallReason } from '@vap/api';

/** A number, or a prefix covering many, that the account's dials never reach. */
@Entity({ name: 'do_not_call' })
export class DoNotCallEntry {
  /** `dnc_<uuid>` */
  @PrimaryColumn('text')
  id: string;

  @Column({ name: 'partner_id', type: 'uuid' })
  partnerId: string;

  @Column('text')
  kind: DoNotCallKind;

  /** The E.164 number, or the prefix (+ and digits). */
  @Column('text')
  value: string;

  @Column('text')
  reason: DoNotCallReason;

  @Column('text')
  source: string;

  @Column({ type: 'text', nullable: true })
  note: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt: Date;
}
