import { MigrationInterface, QueryRunner } from 'typeorm';

export class ExtractionSets1763800001200 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE agents.extraction_sets (
        id text PRIMARY KEY,
        partner_id uuid NOT NULL,
        name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
        description text NOT NULL DEFAULT '',
        keys jsonb NOT NULL DEFAULT '[]',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT extraction_sets_partner_name_key UNIQUE (partner_id, name)
      )`);
    await q.query(
      `CREATE INDEX extraction_sets_partner_page_idx ON agents.extraction_sets (partner_id, created_at, id)`,
    );
    await q.query(`
      CREATE TABLE agents.agent_extraction_sets (
        agent_id uuid NOT NULL REFERENCES agents.agents(id) ON DELETE CASCADE,
        set_id text NOT NULL REFERENCES agents.extraction_sets(id) ON DELETE CASCADE,
        attached_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (agent_id, set_id)
      )`);
    await q.query(`CREATE INDEX agent_extraction_sets_set_idx ON agents.agent_extraction_sets (set_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE agents.agent_extraction_sets`);
    await q.query(`DROP TABLE agents.extraction_sets`);
  }
}
