import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Touch tones on an agent's calls: how the caller's key presses become caller input (dtmf on the API) and
 * whether the model may press keys itself (send_dtmf_enabled). Existing agents get the defaults: both off.
 */
export class AgentDtmf1764900040000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE agents.agents
        ADD COLUMN dtmf jsonb NOT NULL
          DEFAULT '{"enabled": false, "max_digits": null, "terminator": "#", "timeout_ms": 3000}',
        ADD COLUMN send_dtmf_enabled boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE agents.agents DROP COLUMN dtmf, DROP COLUMN send_dtmf_enabled`);
  }
}
