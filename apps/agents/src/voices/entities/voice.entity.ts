import { Column, Entity, PrimaryColumn } from 'typeorm';
import { Timestamped } from '@vap/persistence';
import { VoiceGender, VoiceTier } from '@vap/messages';

/** A catalog voice. Retired voices stay for the agents that use them but are offered to no one. */
@Entity({ name: 'voices' })
export class Voice extends Timestamped {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ name: 'display_name', type: 'text' })
  displayName: string;

  @Column('text')
  description: string;

  @Column('text')
  provider: string;

  @Column({ name: 'model_name', type: 'text' })
  modelName: string;

  @Column('text')
  tier: VoiceTier;

  @Column({ name: 'provider_voice_id', type: 'text' })
  providerVoiceId: string;

  @Column('double precision')
  speed: number;

  @Column('double precision')
  volume: number;

  @Column('text')
  language: string;

  @Column('text')
  gender: VoiceGender;

  @Column({ name: 'preview_text', type: 'text' })
  previewText: string;

  @Column('text')
  status: 'active' | 'retired';
}
