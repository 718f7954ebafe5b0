import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each partner's voice tier as the gateway's partner events last said, with the partner's version: the speech
 * plan is asked by voice without a partner snapshot, and an older event never replaces a newer one.
 */
export class PartnerTiers1765100090000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE agents.partner_tiers (
        partner_id uuid PRIMARY KEY,
        voice_tier text NOT NULL,
        version integer NOT NULL DEFAULT 0,
        updated_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE agents.partner_tiers`);
  }
}
