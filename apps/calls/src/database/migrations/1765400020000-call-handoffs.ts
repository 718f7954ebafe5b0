import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Handoffs between agents: the snapshot of the agent holding a call now (null: the one it started with) and the
 * session's segments, one per agent that held the call (empty until its first handoff).
 */
export class CallHandoffs1765400020000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calls.calls ADD COLUMN current_agent_settings jsonb`);
    await q.query(`ALTER TABLE calls.call_sessions ADD COLUMN segments jsonb NOT NULL DEFAULT '[]'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calls.call_sessions DROP COLUMN segments`);
    await q.query(`ALTER TABLE calls.calls DROP COLUMN current_agent_settings`);
  }
}
