import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** The encrypted credentials of one carrier connection (carrier_a, carrier_b, reseller-link). */
@Entity({ name: 'connection_credentials' })
export class ConnectionCredentials {
  @PrimaryColumn({ name: 'connection_id', type: 'uuid' })
  connectionId: string;

  @Column({ name: 'partner_id', type: 'uuid' })
  partnerId: string;

  /** auth_id / account_sid / API key with all but its ends hidden: safe to show. */
  @Column({ name: 'account_id_masked', type: 'text' })
  accountIdMasked: string;

  /** SecretBox output over the credential JSON, bound to the connection id. */
  @Column('text')
  sealed: string;

  @Column({ name: 'from_number', type: 'text', nullable: true })
  fromNumber: string | null;

  @Column({ name: 'api_base_url', type: 'text', nullable: true })
  apiBaseUrl: string | null;

  @Column({ type: 'text', nullable: true })
  label: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt: Date;
}
