import { Column, Entity, PrimaryColumn } from 'typeorm';
import { Timestamped } from '@vap/persistence';
import type { ApiKeyPlacement, ConnectorType, TokenAuthMethod } from '@vap/api';

/** An OAuth 2.0 connector's settings, in clear (the client secret is sealed apart). */
export interface OAuth2Settings {
  authorize_url: string;
  token_url: string;
  revocation_url: string | null;
  scopes: string[];
  client_id: string;
  token_auth_method: TokenAuthMethod;
  authorize_params: Record<string, string>;
}

/** Where an API key connector's key goes on a request. */
export interface ApiKeySettings {
  in: ApiKeyPlacement;
  name: string;
  prefix: string;
}

/** A kind of external account the account's customers connect (see CustomerConnection). */
@Entity({ name: 'connectors' })
export class Connector extends Timestamped {
  /** `ctr_` + UUID. */
  @PrimaryColumn('text')
  id: string;

  @Column({ name: 'partner_id', type: 'uuid' })
  partnerId: string;

  @Column('text')
  name: string;

  @Column('text')
  type: ConnectorType;

  @Column({ type: 'jsonb', nullable: true })
  oauth2: OAuth2Settings | null;

  /** SecretBox output, bound to this connector's id; null for a public client or an API key connector. */
  @Column({ name: 'client_secret_sealed', type: 'text', nullable: true })
  clientSecretSealed: string | null;

  @Column({ name: 'api_key', type: 'jsonb', nullable: true })
  apiKey: ApiKeySettings | null;
}
