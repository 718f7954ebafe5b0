import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { BackgroundAudioCategory } from '@vap/contracts';

@Entity({ name: 'background_audio' })
export class BackgroundAudio {
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

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
