import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Test scenarios (a caller persona, its lines and what must hold after the call), test runs (scenarios played
 * against an agent, each a number of times) and one row per attempt: the test runner's work queue, claimed with
 * FOR UPDATE SKIP LOCKED, holding each attempt's transcript, verdicts and judge.
 */
export class TestRuns1765400010000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE campaigns.test_scenarios (
        id text PRIMARY KEY,
        partner_id uuid NOT NULL,
        name text NOT NULL,
        mode text NOT NULL CHECK (mode IN ('scripted', 'simulated')),
        persona text NOT NULL DEFAULT '',
        goal text NOT NULL DEFAULT '',
        lines jsonb NOT NULL,
        max_turns int,
        variables jsonb NOT NULL DEFAULT '{}',
        assertions jsonb NOT NULL DEFAULT '[]',
        judge jsonb,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX test_scenarios_partner_created_idx ON campaigns.test_scenarios (partner_id, created_at DESC, id DESC)`,
    );
    await q.query(`
      CREATE TABLE campaigns.test_runs (
        id text PRIMARY KEY,
        partner_id uuid NOT NULL,
        agent_id uuid NOT NULL,
        status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'completed')),
        repetitions int NOT NULL CHECK (repetitions BETWEEN 1 AND 5),
        scenarios jsonb NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        completed_at timestamptz(3)
      )`);
    await q.query(
      `CREATE INDEX test_runs_partner_created_idx ON campaigns.test_runs (partner_id, created_at DESC, id DESC)`,
    );
    await q.query(`
      CREATE TABLE campaigns.test_attempts (
        id uuid PRIMARY KEY,
        run_id text NOT NULL REFERENCES campaigns.test_runs (id) ON DELETE CASCADE,
        partner_id uuid NOT NULL,
        scenario_index int NOT NULL,
        attempt int NOT NULL,
        status text NOT NULL DEFAULT 'queued'
          CHECK (status IN ('queued', 'running', 'passed', 'failed', 'error')),
        due_at timestamptz(3) NOT NULL DEFAULT now(),
        lease_until timestamptz(3),
        tries int NOT NULL DEFAULT 0,
        session_id uuid,
        result jsonb,
        error text,
        started_at timestamptz(3),
        finished_at timestamptz(3),
        UNIQUE (run_id, scenario_index, attempt)
      )`);
    await q.query(
      `CREATE INDEX test_attempts_due_idx ON campaigns.test_attempts (due_at) WHERE status IN ('queued', 'running')`,
    );
    await q.query(
      `CREATE INDEX test_attempts_partner_live_idx ON campaigns.test_attempts (partner_id) WHERE status = 'running'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE campaigns.test_attempts`);
    await q.query(`DROP TABLE campaigns.test_runs`);
    await q.query(`DROP TABLE campaigns.test_scenarios`);
  }
}
