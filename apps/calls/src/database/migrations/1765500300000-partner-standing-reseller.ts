import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A reseller's client's reseller beside its standing: the live calls of a reseller and all its clients
 * together are bounded by the reseller's own concurrency limit, so the admission finds the clients by it.
 */
export class PartnerStandingReseller1765500300000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calls.partner_standing ADD COLUMN reseller_id uuid`);
    await q.query(
      `CREATE INDEX partner_standing_reseller_idx ON calls.partner_standing (reseller_id)
        WHERE reseller_id IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX calls.partner_standing_reseller_idx`);
    await q.query(`ALTER TABLE calls.partner_standing DROP COLUMN reseller_id`);
  }
}
