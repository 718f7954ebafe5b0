import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A browser session's last refused connection attempt (GET /browser-sessions/{id}'s last_refusal): why, from
 * which Origin, when. One set of columns, overwritten by each refusal, so refusals never grow the table.
 */
export class BrowserSessionLastRefusal1765300070000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE calls.browser_sessions
         ADD COLUMN last_refusal_reason text,
         ADD COLUMN last_refusal_origin text,
         ADD COLUMN last_refusal_at timestamptz(3)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE calls.browser_sessions
         DROP COLUMN last_refusal_reason,
         DROP COLUMN last_refusal_origin,
         DROP COLUMN last_refusal_at`,
    );
  }
}
