import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'endpoints' })
export class WebhookEndpoint {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ name: 'partner_id', type: 'uuid' })
  partnerId: string;

  /** null: account-wide. Fixed at creation. */
  @Column({ name: 'agent_id', type: 'uuid', nullable: true })
  agentId: string | null;

  @Column('text')
  label: string;

  @Column('text')
  url: string;

  @Column('boolean')
  enabled: boolean;

  /** Allowlist; empty = every type. */
  @Column('text', { array: true })
  events: string[];

  @Column({ name: 'secret_sealed', type: 'text' })
  secretSealed: string;

  @Column({ name: 'previous_secret_sealed', type: 'text', nullable: true })
  previousSecretSealed: string | null;

  @Column({ name: 'previous_secret_expires_at', type: 'timestamptz', nullable: true })
  previousSecretExpiresAt: Date | null;

  @Column({ name: 'last_delivery_at', type: 'timestamptz', nullable: true })
  lastDeliveryAt: Date | null;

  @Column({ name: 'last_delivery_status', type: 'text', nullable: true })
  lastDeliveryStatus: 'succeeded' | 'failed' | null;

  @Column({ name: 'failing_since', type: 'timestamptz', nullable: true })
  failingSince: Date | null;

  @Column({ name: 'disabled_reason', type: 'text', nullable: true })
  disabledReason: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
