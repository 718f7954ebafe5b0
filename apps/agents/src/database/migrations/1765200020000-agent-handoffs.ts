import { MigrationInterface, QueryRunner } from 'typeorm';

/** The agents an agent may hand its calls to (handoffs on the API); existing agents have none. */
export class AgentHandoffs1765200020000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE agents.agents ADD COLUMN handoffs jsonb NOT NULL DEFAULT '[]'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE agents.agents DROP COLUMN handoffs`);
  }
}
