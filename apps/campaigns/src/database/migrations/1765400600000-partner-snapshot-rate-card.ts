import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A reseller's client's rate card in its snapshot: a campaign starts only with a balance for one 30-second
 * call at the account's own price (null: the platform's price).
 */
export class PartnerSnapshotRateCard1765400600000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE campaigns.partner_snapshots ADD COLUMN price_per_minute_paise integer`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE campaigns.partner_snapshots DROP COLUMN price_per_minute_paise`);
  }
}
