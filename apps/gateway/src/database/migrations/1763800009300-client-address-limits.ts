import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Limits of the unauthenticated surfaces, counted per client address and shared by every gateway replica
 * (like the per-key windows): request windows per address and surface, and operator-token failures per
 * address with the lockout they earned.
 */
export class ClientAddressLimits1763800009300 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE UNLOGGED TABLE gateway.address_rate_limit_windows (
        address text NOT NULL,
        bucket text NOT NULL,
        window_started_at timestamptz NOT NULL,
        request_count integer NOT NULL,
        PRIMARY KEY (address, bucket)
      )`);
    await q.query(
      `CREATE INDEX address_rate_limit_windows_started_idx ON gateway.address_rate_limit_windows (window_started_at)`,
    );
    await q.query(`
      CREATE TABLE gateway.auth_failures (
        address text NOT NULL,
        scope text NOT NULL,
        failures integer NOT NULL,
        last_failure_at timestamptz NOT NULL,
        locked_until timestamptz,
        PRIMARY KEY (address, scope)
      )`);
    await q.query(`CREATE INDEX auth_failures_last_failure_idx ON gateway.auth_failures (last_failure_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE gateway.auth_failures`);
    await q.query(`DROP TABLE gateway.address_rate_limit_windows`);
  }
}
