import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Per-account rate-limit windows beside the per-key ones, so that more keys do not mean more requests.
 * Counters are short-lived and rebuilt by traffic: UNLOGGED like the per-key windows.
 */
export class AccountRateLimits1765100030000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE UNLOGGED TABLE gateway.account_rate_limit_windows (
        partner_id uuid NOT NULL,
        bucket text NOT NULL,
        window_started_at timestamptz NOT NULL,
        request_count integer NOT NULL,
        PRIMARY KEY (partner_id, bucket)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE gateway.account_rate_limit_windows`);
  }
}
