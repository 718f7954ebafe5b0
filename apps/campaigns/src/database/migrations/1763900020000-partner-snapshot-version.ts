import { MigrationInterface, QueryRunner } from 'typeorm';

/** The gateway's version of each partner snapshot: a write with an older version never replaces a newer one. */
export class PartnerSnapshotVersion1763900020000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE campaigns.partner_snapshots ADD COLUMN version integer NOT NULL DEFAULT 0`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE campaigns.partner_snapshots DROP COLUMN version`);
  }
}
