import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * What a browser voice session has beyond its call row (kind `browser`, same id): the origins allowed to
 * open it, the partner's metadata and customer, and when its access token lapses.
 */
@Entity({ name: 'browser_sessions' })
export class BrowserSession {
  @PrimaryColumn({ name: 'call_id', type: 'uuid' })
  callId: string;

  @Column({ name: 'partner_id', type: 'uuid' })
  partnerId: string;

  @Column({ name: 'allowed_origins', type: 'jsonb' })
  allowedOrigins: string[];

  @Column({ type: 'jsonb' })
  metadata: Record<string, unknown>;

  @Column({ name: 'customer_id', type: 'text', nullable: true })
  customerId: string | null;

  /** A session still pending at this time expires (BROWSER_SESSION_TOKEN_TTL_MS after create). */
  @Column({ name: 'expires_at', type: 'timestamptz', precision: 3 })
  expiresAt: Date;

  /** It ended by expiring (never connected). */
  @Column({ type: 'boolean', default: false })
  expired: boolean;

  /** The last refused connection attempt: why (a BrowserRefusalReason), its Origin, when. */
  @Column({ name: 'last_refusal_reason', type: 'text', nullable: true })
  lastRefusalReason: string | null;

  @Column({ name: 'last_refusal_origin', type: 'text', nullable: true })
  lastRefusalOrigin: string | null;

  @Column({ name: 'last_refusal_at', type: 'timestamptz', precision: 3, nullable: true })
  lastRefusalAt: Date | null;
}
