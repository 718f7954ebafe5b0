import { Column, Entity, PrimaryColumn } from 'typeorm';
import { Timestamped } from '@vap/persistence';
import type { CustomerConnectionStatus } from '@vap/api';

/**
 * One customer's connection to one connector (one per pair): its outstanding connect link and authorization
 * attempt (hashes only), and its credential, sealed and bound to this row (the access token, or the API key,
 * and the refresh token).
 */
@Entity({ name: 'customer_connections' })
export class CustomerConnection extends Timestamped {
  /** `cxn_` + UUID. */
  @PrimaryColumn('text')
  id: string;

  @Column({ name: 'partner_id', type: 'uuid' })
  partnerId: string;

  @Column({ name: 'customer_id', type: 'text' })
  customerId: string;

  @Column({ name: 'connector_id', type: 'text' })
  connectorId: string;

  /** As stored; reads turn a pending row whose link ran out into expired (see connectionStatus). */
  @Column('text')
  status: CustomerConnectionStatus;

  @Column({ name: 'link_token_hash', type: 'text', nullable: true })
  linkTokenHash: string | null;

  @Column({ name: 'link_expires_at', type: 'timestamptz', nullable: true })
  linkExpiresAt: Date | null;

  @Column({ name: 'state_hash', type: 'text', nullable: true })
  stateHash: string | null;

  /** Hash of the browser binding cookie the connect page set with this state (RFC 6749 §10.12). */
  @Column({ name: 'state_binding_hash', type: 'text', nullable: true })
  stateBindingHash: string | null;

  @Column({ name: 'state_expires_at', type: 'timestamptz', nullable: true })
  stateExpiresAt: Date | null;

  /** The PKCE code_verifier of the outstanding attempt (RFC 7636 §4.1), sealed. */
  @Column({ name: 'verifier_sealed', type: 'text', nullable: true })
  verifierSealed: string | null;

  /** The access token, or the API key, sealed. */
  @Column({ name: 'access_token_sealed', type: 'text', nullable: true })
  accessTokenSealed: string | null;

  @Column({ name: 'refresh_token_sealed', type: 'text', nullable: true })
  refreshTokenSealed: string | null;

  @Column({ name: 'token_expires_at', type: 'timestamptz', nullable: true })
  tokenExpiresAt: Date | null;

  @Column('jsonb')
  scopes: string[];

  @Column({ name: 'connected_at', type: 'timestamptz', nullable: true })
  connectedAt: Date | null;

  @Column({ name: 'last_refreshed_at', type: 'timestamptz', nullable: true })
  lastRefreshedAt: Date | null;

  @Column({ type: 'text', nullable: true })
  error: string | null;
}
