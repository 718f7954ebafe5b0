import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each account's SMS destination policy (the countries it may text, its daily and per-call caps); no row: the
 * platform's defaults. The daily cap counts an account's outbound messages of the last 24 hours on an index of
 * its own, so a large inbound history does not slow the count.
 */
export class SmsPolicies1765500100000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE calls.sms_policies (
        partner_id uuid PRIMARY KEY,
        allowed_countries text[],
        max_per_day integer CHECK (max_per_day >= 1),
        max_per_call integer CHECK (max_per_call >= 1),
        updated_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX messages_outbound_recent ON calls.messages (partner_id, created_at) WHERE direction = 'outbound'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX calls.messages_outbound_recent`);
    await q.query(`DROP TABLE calls.sms_policies`);
  }
}
