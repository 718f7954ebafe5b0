import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A charge's model use: per model that wrote the call's lines, its tokens and whose key answered (GET
 * /billing/transactions shows it, GET /billing/usage sums the tokens). Null on other entries and on charges
 * written before it was kept: what they ran on was not recorded.
 */
export class LedgerModelUsage1765600200000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE gateway.ledger_entries ADD COLUMN model_usage jsonb NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE gateway.ledger_entries DROP COLUMN model_usage`);
  }
}
