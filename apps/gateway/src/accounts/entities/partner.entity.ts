import { Column, Entity, PrimaryColumn, VersionColumn } from 'typeorm';
import { Timestamped } from '@vap/persistence';
import { PartnerStatus } from '@vap/api';
import { VoiceTier } from '@vap/messages';

export const bigintToNumber = {
  to: (v: number) => v,
  from: (v: string | null) => (v === null ? null : Number(v)),
};

@Entity({ name: 'partners' })
export class Partner extends Timestamped {
  @PrimaryColumn('uuid')
  id: string;

  @Column('text')
  name: string;

  @Column('text')
  status: PartnerStatus;

  /** Money is kept in paise (integer) and shown in rupees. */
  @Column({ name: 'balance_paise', type: 'bigint', transformer: bigintToNumber })
  balancePaise: number;

  @Column({ name: 'concurrency_limit', type: 'integer' })
  concurrencyLimit: number;

  @Column({ name: 'voice_tier', type: 'text' })
  voiceTier: VoiceTier;

  /** One more on every change (a trigger bumps it on any UPDATE); carried in partner events and contexts. */
  @VersionColumn({ type: 'integer' })
  version: number;
}
