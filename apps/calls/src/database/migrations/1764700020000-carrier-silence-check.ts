import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the carrier silence check needs: when a call's media stream ended (a final status should follow
 * shortly), and when the carrier was last asked about a live call (each call asked once per retry period,
 * by one replica).
 */
export class CarrierSilenceCheck1764700020000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calls.call_sessions ADD COLUMN media_stream_ended_at timestamptz(3)`);
    await q.query(`ALTER TABLE calls.calls ADD COLUMN carrier_checked_at timestamptz(3)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calls.calls DROP COLUMN carrier_checked_at`);
    await q.query(`ALTER TABLE calls.call_sessions DROP COLUMN media_stream_ended_at`);
  }
}
