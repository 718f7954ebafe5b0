import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The gateway's version of the partner beside each projected balance: a start command's snapshot can be
 * older than the projection (read by the gateway just before a charge that the projection already shows),
 * and the version says which of the two is newer.
 */
export class PartnerBalanceVersion1764000010000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calls.partner_balances ADD COLUMN version integer NOT NULL DEFAULT 0`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calls.partner_balances DROP COLUMN version`);
  }
}
