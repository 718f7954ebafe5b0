import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Per-console-session rate-limit windows: the console's requests count per session (and per account, in the
 * account windows under a bucket of their own) instead of against an API key's. Sessions come and go, so the
 * windows are pruned like the per-address ones (index on the window start); UNLOGGED like every window table.
 */
export class ConsoleRateLimits1765300010000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE UNLOGGED TABLE gateway.console_session_rate_limit_windows (
        session_key text NOT NULL,
        bucket text NOT NULL,
        window_started_at timestamptz NOT NULL,
        request_count integer NOT NULL,
        PRIMARY KEY (session_key, bucket)
      )`);
    await q.query(
      `CREATE INDEX console_session_rate_limit_windows_started_idx
         ON gateway.console_session_rate_limit_windows (window_started_at)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE gateway.console_session_rate_limit_windows`);
  }
}
