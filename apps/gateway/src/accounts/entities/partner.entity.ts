import { Column, Entity, PrimaryColumn, VersionColumn } from 'typeorm';
import { Timestamped } from '@vap/persistence';
import { PartnerStatus } from '@vap/api';
import { VoiceTier } from '@vap/messages';

/** Who suspended an account (see Partner.suspendedBy). */
export type SuspendedBy = 'operator' | 'reseller' | 'reseller_account';

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

  /** Marked by the operator: the account may create and manage client accounts (/clients). */
  @Column({ name: 'is_reseller', type: 'boolean', default: false })
  isReseller: boolean;

  /** A client account: the reseller that created and manages it (null: an account of the operator's). */
  @Column({ name: 'reseller_id', type: 'uuid', nullable: true })
  resellerId: string | null;

  /** A client's contact email, as its reseller gave it. */
  @Column({ name: 'contact_email', type: 'text', nullable: true })
  contactEmail: string | null;

  /**
   * A client's rate card: what its reseller charges it a minute, in paise (null: the platform's price, no
   * margin). See CallChargeService.
   */
  @Column({ name: 'price_per_minute_paise', type: 'integer', nullable: true })
  pricePerMinutePaise: number | null;

  /**
   * Who suspended a suspended account: the reseller may lift only its own suspension; 'reseller_account' is a
   * client held because its reseller is not approved, lifted when the reseller is approved again.
   */
  @Column({ name: 'suspended_by', type: 'text', nullable: true })
  suspendedBy: SuspendedBy | null;

  /** One more on every change (a trigger bumps it on any UPDATE); carried in partner events and contexts. */
  @VersionColumn({ type: 'integer' })
  version: number;
}
