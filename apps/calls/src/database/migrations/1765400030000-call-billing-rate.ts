import { MigrationInterface, QueryRunner } from 'typeorm';

/** What a call's minutes cost: `standard` (the calls' price) or `test` (a test run's browser session). */
export class CallBillingRate1765400030000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE calls.calls ADD COLUMN billing_rate text NOT NULL DEFAULT 'standard'
         CHECK (billing_rate IN ('standard', 'test'))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calls.calls DROP COLUMN billing_rate`);
  }
}
