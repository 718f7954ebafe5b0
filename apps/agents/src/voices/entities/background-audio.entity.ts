import { Column, Entity, PrimaryColumn } from 'typeorm';
import { Timestamped } from '@vap/persistence';
import { BackgroundAudioCategory } from '@vap/api';

@Entity({ name: 'background_audio' })
export class BackgroundAudio extends Timestamped {
  @PrimaryColumn('uuid')
  id: string;

  @Column('text')
  name: string;

  @Column('text')
  description: string;

  @Column('text')
  category: BackgroundAudioCategory;

  @Column({ name: 'duration_secs', type: 'integer' })
  durationSecs: number;

  @Column('text')
  status: 'active' | 'retired';
}
