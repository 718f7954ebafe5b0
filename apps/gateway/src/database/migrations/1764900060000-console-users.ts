import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The partner console's people: users of an account with a role and a password hash (scrypt), the one-time
 * links an operator or owner hands out (invitations and password resets, only their SHA-256 kept) and
 * signed-in sessions (the cookie's SHA-256, with the session's CSRF token). A user's email signs in to one
 * account, so it is unique among users (case-insensitive).
 */
export class ConsoleUsers1764900060000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE gateway.partner_users (
        id uuid PRIMARY KEY,
        partner_id uuid NOT NULL REFERENCES gateway.partners(id) ON DELETE CASCADE,
        email text NOT NULL,
        name text NOT NULL,
        role text NOT NULL CHECK (role IN ('owner', 'admin', 'developer', 'viewer')),
        password_hash text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        last_sign_in_at timestamptz
      )`);
    await q.query(`CREATE UNIQUE INDEX partner_users_email ON gateway.partner_users (lower(email))`);
    await q.query(`CREATE INDEX partner_users_partner ON gateway.partner_users (partner_id, created_at)`);
    await q.query(`
      CREATE TABLE gateway.console_links (
        token_hash bytea PRIMARY KEY,
        kind text NOT NULL CHECK (kind IN ('invitation', 'password_reset')),
        user_id uuid NOT NULL REFERENCES gateway.partner_users(id) ON DELETE CASCADE,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX console_links_user ON gateway.console_links (user_id)`);
    await q.query(`
      CREATE TABLE gateway.console_sessions (
        token_hash bytea PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES gateway.partner_users(id) ON DELETE CASCADE,
        csrf_token text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_seen_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz
      )`);
    await q.query(`CREATE INDEX console_sessions_user ON gateway.console_sessions (user_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE gateway.console_sessions`);
    await q.query(`DROP TABLE gateway.console_links`);
    await q.query(`DROP TABLE gateway.partner_users`);
  }
}
