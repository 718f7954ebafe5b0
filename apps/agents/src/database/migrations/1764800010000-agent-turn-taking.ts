import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An agent's turn-taking (turn_taking on the API): its mode, the silence bounds that override the mode's (null
 * keeps the mode's) and whether acknowledgements during the agent's speech are ignored. Existing agents get
 * the defaults.
 */
export class AgentTurnTaking1764800010000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE agents.agents ADD COLUMN turn_taking jsonb NOT NULL
        DEFAULT '{"mode": "balanced", "min_silence_ms": null, "max_silence_ms": null, "ignore_backchannels": true}'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE agents.agents DROP COLUMN turn_taking`);
  }
}
