import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When the platform began asking the carrier to place an outbound call (null: never asked), and an index over
 * the active phone calls that have no carrier id yet, which the placement recovery looks through.
 */
export class CallDialStart1765100010000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calls.calls ADD COLUMN dial_started_at timestamptz(3)`);
    await q.query(
      `CREATE INDEX calls_unplaced_idx ON calls.calls (created_at)
        WHERE provider_call_id IS NULL AND kind = 'phone' AND direction = 'outbound'
          AND status IN ('pending', 'ringing', 'in_progress')`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX calls.calls_unplaced_idx`);
    await q.query(`ALTER TABLE calls.calls DROP COLUMN dial_started_at`);
  }
}
