import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A partner's version: 1 at creation, one more on every change, in the transaction of the change. Services
 * that keep a copy of the partner (from events and command contexts) keep the highest version they saw, so
 * an older view that arrives late never overwrites a newer one. The trigger bumps it on every UPDATE,
 * whatever statement makes it; the entity's version column reads the same value back.
 */
export class PartnerVersion1763900020000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE gateway.partners ADD COLUMN version integer NOT NULL DEFAULT 1`);
    await q.query(`
      CREATE FUNCTION gateway.bump_partner_version() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.version := OLD.version + 1;
        RETURN NEW;
      END $$`);
    await q.query(`
      CREATE TRIGGER partners_version BEFORE UPDATE ON gateway.partners
      FOR EACH ROW EXECUTE FUNCTION gateway.bump_partner_version()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER partners_version ON gateway.partners`);
    await q.query(`DROP FUNCTION gateway.bump_partner_version()`);
    await q.query(`ALTER TABLE gateway.partners DROP COLUMN version`);
  }
}
