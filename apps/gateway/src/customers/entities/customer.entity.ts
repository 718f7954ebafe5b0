import { Column, Entity, PrimaryColumn } from 'typeorm';
import { Timestamped } from '@vap/persistence';
import { CustomerStatus } from '@vap/api';

@Entity({ name: 'customers' })
export class Customer extends Timestamped {
  /** `cus_` + UUID. */
  @PrimaryColumn('text')
  id: string;

  @Column({ name: 'partner_id', type: 'uuid' })
  partnerId: string;

  @Column({ name: 'external_id', type: 'text' })
  externalId: string;

  @Column('text')
  name: string;

  @Column({ type: 'text', nullable: true })
  email: string | null;

  @Column({ type: 'jsonb', nullable: true })
  metadata: Record<string, unknown> | null;

  @Column('text')
  status: CustomerStatus;
}
