import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { ExtractionKeyDto } from '@vap/contracts';

/** A reusable list of extraction keys, attachable to agents. */
@Entity({ name: 'extraction_sets' })
export class ExtractionSet {
  /** `exs_` + UUID. */
  @PrimaryColumn('text')
  id: string;

  @Column({ name: 'partner_id', type: 'uuid' })
  partnerId: string;

  @Column('text')
  name: string;

  @Column('text')
  description: string;

  @Column('jsonb')
  keys: ExtractionKeyDto[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
