import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Partner } from './partner.entity';

/** An API key is stored only as a SHA-256 hash; the lookup prefix finds the row without revealing the key. */
@Entity({ name: 'api_keys' })
export class ApiKey {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ name: 'partner_id', type: 'uuid' })
  partnerId: string;

  @ManyToOne(() => Partner)
  @JoinColumn({ name: 'partner_id' })
  partner?: Partner;

  @Column({ name: 'lookup_prefix', type: 'text' })
  lookupPrefix: string;

  @Column({ name: 'key_hash', type: 'text' })
  keyHash: string;

  @Column({ type: 'text', nullable: true })
  name: string | null;

  /** The scope names given at creation (API_KEY_SCOPES); null: full access. */
  @Column({ type: 'text', array: true, nullable: true })
  scopes: string[] | null;

  /**
   * Who made the key: 'operator' (the platform's admin API, e.g. the account's first key) or 'console' (a user of
   * the account, createdByUserId) or 'reseller' (a client account's key its reseller made); null for keys made
   * before this was kept.
   */
  @Column({ name: 'created_via', type: 'text', nullable: true })
  createdVia: 'operator' | 'console' | 'reseller' | null;

  @Column({ name: 'created_by_user_id', type: 'uuid', nullable: true })
  createdByUserId: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;
}
