import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Post-call analysis of an agent's calls (analysis_config on the API): a summary, and a success evaluation against
 * the agent's rubric. Existing agents get the defaults: summary on, no rubric, threshold 7.
 */
export class AgentAnalysis1765200010000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE agents.agents
        ADD COLUMN analysis_config jsonb NOT NULL
          DEFAULT '{"summary_enabled": true, "summary_instructions": null, "success_rubric": null, "success_threshold": 7}'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE agents.agents DROP COLUMN analysis_config`);
  }
}
