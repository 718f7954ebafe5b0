import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each partner's status as the calls service last learned it, with the gateway's version of the partner:
 * start-call refuses a partner that is not approved here, whatever the command's own snapshot says.
 */
export class PartnerStanding1763900020000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE calls.partner_standing (
        partner_id uuid PRIMARY KEY,
        status text NOT NULL,
        version integer NOT NULL,
        updated_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE calls.partner_standing`);
  }
}
