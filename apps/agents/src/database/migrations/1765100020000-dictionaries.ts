import { MigrationInterface, QueryRunner } from 'typeorm';

/** Pronunciation dictionaries: an account's words with how to say them (alias, IPA), used by its agents. */
export class Dictionaries1765100020000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE agents.dictionaries (
        id uuid PRIMARY KEY,
        partner_id uuid NOT NULL,
        name text NOT NULL,
        description text,
        entries jsonb NOT NULL DEFAULT '[]',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX dictionaries_partner_page_idx ON agents.dictionaries (partner_id, created_at, id)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE agents.dictionaries`);
  }
}
