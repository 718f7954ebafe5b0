import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * tool_calls: the tool invocations of a call's conversation (built-in tools and the partner's functions), in
 * the order the voice service reported them; tool_call_marks: per media stream, the next invocation it has
 * not recorded yet, so a retried report is recorded once (as voice_line_marks does for transcript lines).
 */
export class SessionToolCalls1764900050000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calls.call_sessions ADD COLUMN tool_calls jsonb NOT NULL DEFAULT '[]'::jsonb`);
    await q.query(
      `ALTER TABLE calls.call_sessions ADD COLUMN tool_call_marks jsonb NOT NULL DEFAULT '{}'::jsonb`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calls.call_sessions DROP COLUMN tool_call_marks`);
    await q.query(`ALTER TABLE calls.call_sessions DROP COLUMN tool_calls`);
  }
}
