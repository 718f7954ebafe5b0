import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The send_sms tool on an agent's calls: whether the model gets it (sms_enabled) and whom it may text
 * (sms_allowed_recipients: the other party of the call only, or any number). Existing agents: off, caller.
 */
export class AgentSms1765400210000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE agents.agents
        ADD COLUMN sms_enabled boolean NOT NULL DEFAULT false,
        ADD COLUMN sms_allowed_recipients text NOT NULL DEFAULT 'caller'
          CHECK (sms_allowed_recipients IN ('caller', 'any'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE agents.agents DROP COLUMN sms_enabled, DROP COLUMN sms_allowed_recipients`);
  }
}
