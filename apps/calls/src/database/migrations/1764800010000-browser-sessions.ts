import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Browser voice sessions: a call row of kind `browser` (provider `browser`, no carrier connection), so
 * attach, transcripts, recordings, the charge, the balance guard and the concurrency count apply to it as to
 * a call, and beside it what only a session has: the origins allowed to connect, its metadata, its customer
 * and when its token lapses (a pending session not connected by then expires).
 */
export class BrowserSessions1764800010000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calls.calls ADD COLUMN kind text NOT NULL DEFAULT 'phone'`);
    await q.query(`ALTER TABLE calls.calls ALTER COLUMN connection_id DROP NOT NULL`);
    await q.query(`
      CREATE TABLE calls.browser_sessions (
        call_id uuid PRIMARY KEY REFERENCES calls.calls(id) ON DELETE CASCADE,
        partner_id uuid NOT NULL,
        allowed_origins jsonb NOT NULL,
        metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
        customer_id text,
        expires_at timestamptz(3) NOT NULL,
        expired boolean NOT NULL DEFAULT false
      )`);
    await q.query(
      `CREATE INDEX calls_browser_pending_idx ON calls.calls (created_at) WHERE kind = 'browser' AND status = 'pending'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX calls.calls_browser_pending_idx`);
    await q.query(`DROP TABLE calls.browser_sessions`);
    await q.query(`DELETE FROM calls.calls WHERE kind = 'browser'`);
    await q.query(`ALTER TABLE calls.calls ALTER COLUMN connection_id SET NOT NULL`);
    await q.query(`ALTER TABLE calls.calls DROP COLUMN kind`);
  }
}
