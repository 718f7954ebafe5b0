import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Calls no longer run inside a calls replica: every carrier, the sandbox included, drives its calls by
 * callbacks any replica takes, so the owning replica (owner_id) and its index go.
 */
export class DropCallOwner1764700010000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX calls.calls_live_owner_idx`);
    await q.query(`ALTER TABLE calls.calls DROP COLUMN owner_id`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calls.calls ADD COLUMN owner_id uuid`);
    await q.query(
      `CREATE INDEX calls_live_owner_idx ON calls.calls (owner_id)
         WHERE owner_id IS NOT NULL AND status IN ('pending', 'ringing', 'in_progress')`,
    );
  }
}
