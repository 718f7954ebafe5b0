import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Nonces of media-stream tokens the voice service has used: a token opens one stream, across every voice
 * and calls replica (INSERT ... ON CONFLICT DO NOTHING claims it once). Rows outlive their tokens only
 * briefly: claims older than any token's lifetime are pruned.
 */
export class MediaStreamClaims1764100010000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE calls.media_stream_claims (
        nonce text PRIMARY KEY,
        call_id uuid NOT NULL REFERENCES calls.calls(id) ON DELETE CASCADE,
        claimed_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX media_stream_claims_claimed_idx ON calls.media_stream_claims (claimed_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE calls.media_stream_claims`);
  }
}
