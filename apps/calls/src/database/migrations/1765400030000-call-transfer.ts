import { MigrationInterface, QueryRunner } from 'typeorm';

/** A call's transfer to a human: its type, outcome, times and legs (null: never transferred). */
export class CallTransfer1765400030000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calls.calls ADD COLUMN transfer jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calls.calls DROP COLUMN transfer`);
  }
}
