import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The integration log: every request made to a partner's systems (custom functions, their tests, lifecycle
 * hooks, inbound decision requests, knowledge-base page fetches), read back by the partner and pruned after
 * the retention period. Listed newest first per partner; the other filters narrow that walk.
 */
export class IntegrationLogs1764900020000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE agents.integration_logs (
        id uuid PRIMARY KEY,
        partner_id uuid NOT NULL,
        kind text NOT NULL,
        call_id uuid,
        browser_session_id text,
        agent_id uuid,
        function_id text,
        hook_id text,
        method text NOT NULL,
        url text NOT NULL,
        request_headers jsonb NOT NULL,
        request_body text,
        status integer,
        response_body text,
        outcome text NOT NULL,
        error text,
        latency_ms integer NOT NULL,
        attempts integer NOT NULL,
        started_at timestamptz NOT NULL
      )`);
    await q.query(`
      CREATE INDEX integration_logs_partner_started ON agents.integration_logs (partner_id, started_at, id)`);
    await q.query(
      `CREATE INDEX integration_logs_call ON agents.integration_logs (call_id) WHERE call_id IS NOT NULL`,
    );
    // Pruning walks the whole table by age.
    await q.query(`CREATE INDEX integration_logs_started ON agents.integration_logs (started_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE agents.integration_logs`);
  }
}
