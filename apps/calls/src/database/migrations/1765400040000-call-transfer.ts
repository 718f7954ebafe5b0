import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A call's transfer to a human: its type, outcome, times and legs (null: never transferred); for a warm transfer,
 * the consult stream's id (the human's leg streams to the media plane under it) and the briefing it speaks.
 */
export class CallTransfer1765400040000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calls.calls ADD COLUMN transfer jsonb`);
    await q.query(`ALTER TABLE calls.calls ADD COLUMN transfer_consult_id uuid`);
    await q.query(`ALTER TABLE calls.calls ADD COLUMN transfer_briefing text`);
    await q.query(
      `CREATE UNIQUE INDEX calls_transfer_consult_id ON calls.calls (transfer_consult_id) WHERE transfer_consult_id IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX calls.calls_transfer_consult_id`);
    await q.query(`ALTER TABLE calls.calls DROP COLUMN transfer_briefing`);
    await q.query(`ALTER TABLE calls.calls DROP COLUMN transfer_consult_id`);
    await q.query(`ALTER TABLE calls.calls DROP COLUMN transfer`);
  }
}
