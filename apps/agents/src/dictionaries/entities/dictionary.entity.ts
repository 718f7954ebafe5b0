import { Column, Entity, PrimaryColumn } from 'typeorm';
import { Timestamped } from '@vap/persistence';

/** One word of a dictionary as stored: the word, and how to say it when given. */
export interface StoredDictionaryEntry {
  word: string;
  alias?: string;
  ipa?: string;
}

/** A partner's pronunciation dictionary. Deleted for good; refused while a live agent uses it. */
@Entity({ name: 'dictionaries' })
export class Dictionary extends Timestamped {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ name: 'partner_id', type: 'uuid' })
  partnerId: string;

  @Column('text')
  name: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'jsonb' })
  entries: StoredDictionaryEntry[];
}
