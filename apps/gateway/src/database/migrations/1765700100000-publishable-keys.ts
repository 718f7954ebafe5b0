import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Publishable keys (pk_live_...): public keys a web page carries, which may only create browser sessions for
 * the agents they name from the origins they list. Stored as a SHA-256 hash and a lookup prefix, as API keys
 * are. Each session a key created is kept with its origin until it is seen ended, for the key's per-minute and
 * live-session limits.
 */
export class PublishableKeys1765700100000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE gateway.publishable_keys (
        id uuid PRIMARY KEY,
        partner_id uuid NOT NULL REFERENCES gateway.partners(id),
        lookup_prefix text NOT NULL UNIQUE,
        key_hash text NOT NULL,
        name text NOT NULL,
        agent_ids uuid[] NOT NULL,
        allowed_origins text[] NOT NULL,
        sessions_per_minute integer NOT NULL,
        origin_sessions_per_minute integer NOT NULL,
        max_live_sessions integer NOT NULL,
        origin_max_live_sessions integer NOT NULL,
        created_via text NOT NULL,
        created_by_user_id uuid NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz NULL,
        revoked_at timestamptz NULL
      )`);
    await q.query(`CREATE INDEX publishable_keys_partner ON gateway.publishable_keys (partner_id)`);
    await q.query(
      `CREATE INDEX publishable_keys_origins ON gateway.publishable_keys USING gin (allowed_origins) WHERE revoked_at IS NULL`,
    );
    await q.query(`
      CREATE TABLE gateway.publishable_key_sessions (
        session_id text PRIMARY KEY,
        key_id uuid NOT NULL REFERENCES gateway.publishable_keys(id) ON DELETE CASCADE,
        origin text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        ended_at timestamptz NULL
      )`);
    await q.query(
      `CREATE INDEX publishable_key_sessions_key ON gateway.publishable_key_sessions (key_id, created_at)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE gateway.publishable_key_sessions`);
    await q.query(`DROP TABLE gateway.publishable_keys`);
  }
}
