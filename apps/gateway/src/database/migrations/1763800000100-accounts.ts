import { MigrationInterface, QueryRunner } from 'typeorm';

export class Accounts1763800000100 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE gateway.partners (
        id uuid PRIMARY KEY,
        name text NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'approved', 'suspended')),
        balance_paise bigint NOT NULL DEFAULT 0 CHECK (balance_paise >= 0),
        concurrency_limit integer NOT NULL DEFAULT 5 CHECK (concurrency_limit > 0),
        voice_tier text NOT NULL DEFAULT 'standard',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE gateway.api_keys (
        id uuid PRIMARY KEY,
        partner_id uuid NOT NULL REFERENCES gateway.partners(id),
        lookup_prefix text NOT NULL UNIQUE,
        key_hash text NOT NULL,
        name text,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz,
        revoked_at timestamptz
      )`);
    await q.query(`CREATE INDEX api_keys_partner_idx ON gateway.api_keys (partner_id)`);
    await q.query(`
      CREATE TABLE gateway.ledger_entries (
        id uuid PRIMARY KEY,
        partner_id uuid NOT NULL REFERENCES gateway.partners(id),
        amount_paise bigint NOT NULL,
        balance_after_paise bigint NOT NULL,
        reason text NOT NULL,
        reference text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX ledger_entries_partner_idx ON gateway.ledger_entries (partner_id, created_at)`,
    );
    // Counters are short-lived and rebuilt by traffic: UNLOGGED skips the WAL on this hot write path.
    await q.query(`
      CREATE UNLOGGED TABLE gateway.rate_limit_windows (
        api_key_id uuid NOT NULL,
        bucket text NOT NULL,
        window_started_at timestamptz NOT NULL,
        request_count integer NOT NULL,
        PRIMARY KEY (api_key_id, bucket)
      )`);
    await q.query(`
      CREATE TABLE gateway.customers (
        id text PRIMARY KEY,
        partner_id uuid NOT NULL REFERENCES gateway.partners(id),
        external_id text NOT NULL,
        name text NOT NULL,
        email text,
        metadata jsonb,
        status text NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'ARCHIVED')),
        -- Millisecond precision: list cursors carry created_at as an ISO string, which must compare exactly.
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now(),
        CONSTRAINT customers_partner_external_id_key UNIQUE (partner_id, external_id)
      )`);
    await q.query(
      `CREATE INDEX customers_partner_page_idx ON gateway.customers (partner_id, created_at, id)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE gateway.customers`);
    await q.query(`DROP TABLE gateway.rate_limit_windows`);
    await q.query(`DROP TABLE gateway.ledger_entries`);
    await q.query(`DROP TABLE gateway.api_keys`);
    await q.query(`DROP TABLE gateway.partners`);
  }
}
