import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * How an agent transfers (cold, warm with a briefing, warm with a handback), what its briefing covers and how long
 * the human's leg rings; existing agents keep transferring cold.
 */
export class AgentTransferMode1765400030000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE agents.agents ADD COLUMN transfer_mode text NOT NULL DEFAULT 'cold'`);
    await q.query(`ALTER TABLE agents.agents ADD COLUMN transfer_briefing_instructions text`);
    await q.query(
      `ALTER TABLE agents.agents ADD COLUMN transfer_ring_timeout_secs integer NOT NULL DEFAULT 20`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE agents.agents DROP COLUMN transfer_ring_timeout_secs`);
    await q.query(`ALTER TABLE agents.agents DROP COLUMN transfer_briefing_instructions`);
    await q.query(`ALTER TABLE agents.agents DROP COLUMN transfer_mode`);
  }
}
