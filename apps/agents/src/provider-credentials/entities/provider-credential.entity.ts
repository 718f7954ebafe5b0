import { Column, Entity, PrimaryColumn } from 'typeorm';
import { Timestamped } from '@vap/persistence';
import type { CredentialProviderName } from '@vap/messages';

/**
 * An account's credential for one provider (one per provider), sealed at rest: a cloud speech or model
 * provider's key, or (`custom`) where the account's own model server is, its optional key and the secret the
 * platform signs its requests with.
 */
@Entity({ name: 'provider_credentials' })
export class ProviderCredential extends Timestamped {
  /** `pcred_` + UUID. */
  @PrimaryColumn('text')
  id: string;

  @Column({ name: 'partner_id', type: 'uuid' })
  partnerId: string;

  @Column('text')
  provider: CredentialProviderName;

  @Column({ type: 'text', nullable: true })
  label: string | null;

  /** Azure Speech keys: their region; Azure OpenAI keys: their resource name; null for every other provider. */
  @Column({ type: 'text', nullable: true })
  region: string | null;

  /** The key's last four characters: what reads show instead of the key. Null: a custom server without a key. */
  @Column({ name: 'key_last4', type: 'text', nullable: true })
  keyLast4: string | null;

  /** SecretBox output over the key, bound to this row's id (see ProviderKeySealer); null with keyLast4. */
  @Column({ name: 'key_sealed', type: 'text', nullable: true })
  keySealed: string | null;

  /** custom: the model server's base URL (https); null for every other provider. */
  @Column({ name: 'base_url', type: 'text', nullable: true })
  baseUrl: string | null;

  /** custom: the sealed secret its requests are signed with; null for every other provider. */
  @Column({ name: 'signing_secret_sealed', type: 'text', nullable: true })
  signingSecretSealed: string | null;

  /** When the provider last accepted the key (creation or rotation). */
  @Column({ name: 'checked_at', type: 'timestamptz' })
  checkedAt: Date;
}
