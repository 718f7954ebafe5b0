import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The built-in tools an agent's model may be offered (`tools`, names of the agent tool catalog). Existing agents
 * get null: every tool their settings turn on, as before.
 */
export class AgentTools1765400400000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE agents.agents ADD COLUMN tools jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE agents.agents DROP COLUMN tools`);
  }
}
