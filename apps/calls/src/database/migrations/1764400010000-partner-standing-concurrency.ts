import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The partner's concurrency limit beside its standing: inbound calls, which arrive without a command's
 * partner snapshot, report it in their events' account_concurrency. Null until a partner event or a start
 * command has told it.
 */
export class PartnerStandingConcurrency1764400010000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calls.partner_standing ADD COLUMN concurrency_limit integer`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calls.partner_standing DROP COLUMN concurrency_limit`);
  }
}
