import { MigrationInterface, QueryRunner } from 'typeorm';

export class CustomFunctions1764900010000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE agents.custom_functions (
        id text PRIMARY KEY,
        partner_id uuid NOT NULL,
        name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 64),
        description text NOT NULL,
        parameters json NOT NULL,
        url text NOT NULL,
        method text NOT NULL CHECK (method IN ('GET', 'POST', 'PUT', 'PATCH', 'DELETE')),
        header_names jsonb NOT NULL DEFAULT '[]',
        headers_sealed text,
        signing_secret_sealed text NOT NULL,
        timeout_ms int NOT NULL CHECK (timeout_ms BETWEEN 1000 AND 120000),
        speech jsonb NOT NULL,
        response_variables jsonb NOT NULL DEFAULT '{}',
        async boolean NOT NULL DEFAULT false,
        version int NOT NULL DEFAULT 1,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // parameters is json, not jsonb: the schema is kept with its keys in the order the partner wrote them.
    // Names are what the model calls a function by: two differing only in case would confuse it.
    await q.query(
      `CREATE UNIQUE INDEX custom_functions_partner_name_key ON agents.custom_functions (partner_id, lower(name))`,
    );
    await q.query(
      `CREATE INDEX custom_functions_partner_page_idx ON agents.custom_functions (partner_id, created_at, id)`,
    );
    await q.query(`
      CREATE TABLE agents.agent_custom_functions (
        agent_id uuid NOT NULL REFERENCES agents.agents(id) ON DELETE CASCADE,
        function_id text NOT NULL REFERENCES agents.custom_functions(id) ON DELETE CASCADE,
        attached_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (agent_id, function_id)
      )`);
    await q.query(
      `CREATE INDEX agent_custom_functions_function_idx ON agents.agent_custom_functions (function_id)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE agents.agent_custom_functions`);
    await q.query(`DROP TABLE agents.custom_functions`);
  }
}
