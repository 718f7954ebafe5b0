import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An agent's speech choices: its transcriber and the one to fall back to (null: the deployment's default), the
 * voices to fall back to, and the account's pronunciation dictionaries it uses. Existing agents keep none.
 */
export class AgentSpeechFields1765100010000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE agents.agents
        ADD COLUMN transcriber jsonb,
        ADD COLUMN fallback_transcriber jsonb,
        ADD COLUMN fallback_voice_ids uuid[] NOT NULL DEFAULT '{}',
        ADD COLUMN dictionary_ids uuid[] NOT NULL DEFAULT '{}'`);
    // Deleting a dictionary looks for the live agents that use it.
    await q.query(
      `CREATE INDEX agents_dictionary_ids_idx ON agents.agents USING gin (dictionary_ids) WHERE deleted_at IS NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX agents.agents_dictionary_ids_idx`);
    await q.query(`
      ALTER TABLE agents.agents
        DROP COLUMN transcriber, DROP COLUMN fallback_transcriber,
        DROP COLUMN fallback_voice_ids, DROP COLUMN dictionary_ids`);
  }
}
