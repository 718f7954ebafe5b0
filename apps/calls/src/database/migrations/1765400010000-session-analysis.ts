import { MigrationInterface, QueryRunner } from 'typeorm';

/** A session's post-call analysis (summary and success evaluation); null until post-call processing ran. */
export class SessionAnalysis1765400010000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calls.call_sessions ADD COLUMN analysis jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calls.call_sessions DROP COLUMN analysis`);
  }
}
