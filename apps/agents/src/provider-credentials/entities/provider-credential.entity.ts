import { Column, Entity, PrimaryColumn } from 'typeorm';
import { Timestamped } from '@vap/persistence';
import type { SpeechProviderName } from '@vap/messages';

/** An account's key for one cloud speech provider (one per provider), sealed at rest. */
@Entity({ name: 'provider_credentials' })
export class ProviderCredential extends Timestamped {
  /** `pcred_` + UUID. */
  @PrimaryColumn('text')
  id: string;

  @Column({ name: 'partner_id', type: 'uuid' })
  partnerId: string;

  @Column('text')
  provider: SpeechProviderName;

  @Column({ type: 'text', nullable: true })
  label: string | null;

  /** Azure Speech keys belong to a region; null for every other provider. */
  @Column({ type: 'text', nullable: true })
  region: string | null;

  /** The key's last four characters: what reads show instead of the key. */
  @Column({ name: 'key_last4', type: 'text' })
  keyLast4: string;

  /** SecretBox output over the key, bound to this row's id (see ProviderKeySealer). */
  @Column({ name: 'key_sealed', type: 'text' })
  keySealed: string;

  /** When the provider last accepted the key (creation or rotation). */
  @Column({ name: 'checked_at', type: 'timestamptz' })
  checkedAt: Date;
}
