import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A reseller's client's rate card beside its standing: the account's calls are priced at it (null: the
 * platform's price), so the charge the calls service fixes and shows is the client's own.
 */
export class PartnerRateCard1765400600000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calls.partner_standing ADD COLUMN price_per_minute_paise integer`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calls.partner_standing DROP COLUMN price_per_minute_paise`);
  }
}
