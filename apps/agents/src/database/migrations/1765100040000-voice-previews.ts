import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Synthesised previews of catalog voices (GET /voice-configurations/{id}/preview), one per voice and engine
 * (the provider, or the offline stand-in). A row answers only while it matches the voice's updated_at and the
 * hash of its preview_text: an edited voice is synthesised again, and its row replaced.
 */
export class VoicePreviews1765100040000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE agents.voice_previews (
        voice_id uuid NOT NULL REFERENCES agents.voices (id) ON DELETE CASCADE,
        engine text NOT NULL,
        voice_updated_at timestamptz NOT NULL,
        text_sha256 text NOT NULL,
        sample_rate integer NOT NULL,
        audio bytea NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (voice_id, engine)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE agents.voice_previews`);
  }
}
