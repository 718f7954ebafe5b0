import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The contact policy: each account's do-not-call list (numbers and prefixes), its settings (calling window,
 * frequency caps) and the log of dials a rule stopped. A dial looks up its number and every prefix of it in
 * one index probe on (partner_id, value); the caps count a number's calls on (partner_id, to_number, created_at).
 */
export class ContactPolicy1764200010000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE calls.do_not_call (
        id text PRIMARY KEY,
        partner_id uuid NOT NULL,
        kind text NOT NULL CHECK (kind IN ('number', 'prefix')),
        value text NOT NULL,
        reason text NOT NULL CHECK (reason IN ('opt_out', 'complaint', 'legal', 'manual')),
        source text NOT NULL,
        note text,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX do_not_call_value ON calls.do_not_call (partner_id, value, kind)`);
    await q.query(`CREATE INDEX do_not_call_page ON calls.do_not_call (partner_id, created_at, id)`);
    await q.query(`
      CREATE TABLE calls.policy_decisions (
        id uuid PRIMARY KEY,
        partner_id uuid NOT NULL,
        number text NOT NULL,
        rule text NOT NULL,
        outcome text NOT NULL,
        source text NOT NULL,
        campaign_id text,
        contact_id text,
        do_not_call_id text,
        retry_at timestamptz(3),
        detail text NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX policy_decisions_page ON calls.policy_decisions (partner_id, created_at, id)`,
    );
    await q.query(
      `CREATE INDEX policy_decisions_number ON calls.policy_decisions (partner_id, number, created_at)`,
    );
    await q.query(`
      CREATE TABLE calls.contact_policy_settings (
        partner_id uuid PRIMARY KEY,
        calling_window jsonb,
        windows_apply_to_single_calls boolean NOT NULL DEFAULT false,
        max_attempts_per_day integer CHECK (max_attempts_per_day > 0),
        max_attempts_per_7_days integer CHECK (max_attempts_per_7_days > 0),
        updated_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX calls_outbound_number_idx ON calls.calls (partner_id, to_number, created_at) WHERE direction = 'outbound'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX calls.calls_outbound_number_idx`);
    await q.query(`DROP TABLE calls.contact_policy_settings`);
    await q.query(`DROP TABLE calls.policy_decisions`);
    await q.query(`DROP TABLE calls.do_not_call`);
  }
}
