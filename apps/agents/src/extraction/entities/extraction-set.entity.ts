import { Column, Entity, PrimaryColumn } from 'typeorm';
import { Timestamped } from '@vap/persistence';
import { ExtractionKeyDto } from '@vap/api';

/** A reusable list of extraction keys, attachable to agents. */
@Entity({ name: 'extraction_sets' })
export class ExtractionSet extends Timestamped {
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
}
