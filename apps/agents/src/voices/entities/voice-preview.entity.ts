import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import type { VoicePreviewEngine } from '@vap/messages';

/** A voice's synthesised preview, valid while the voice's updated_at and preview_text hash match. */
@Entity({ name: 'voice_previews' })
export class VoicePreview {
  @PrimaryColumn({ name: 'voice_id', type: 'uuid' })
  voiceId: string;

  @PrimaryColumn('text')
  engine: VoicePreviewEngine;

  @Column({ name: 'voice_updated_at', type: 'timestamptz' })
  voiceUpdatedAt: Date;

  @Column({ name: 'text_sha256', type: 'text' })
  textSha256: string;

  @Column({ name: 'sample_rate', type: 'integer' })
  sampleRate: number;

  /** The whole WAV file (header included). */
  @Column('bytea')
  audio: Buffer;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
