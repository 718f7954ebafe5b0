// The last two attempts of a test run finishing at the same moment, against real Postgres: each one's count of
// the run's unfinished attempts must see the other's outcome, or neither completes the run and it stays running
// for good (a partner's CI waits on it until its own timeout).
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { DispatchTestDatabase, openDispatchTestDatabase } from '../dispatch/testing/dispatch-test-database';
import { TestAttemptRow } from './test-run-rows';
import { TestRunsRepository } from './test-runs.repository';

describe('finishing the attempts of a test run', () => {
  let setup: DispatchTestDatabase;
  let dataSource: DataSource;
  let repo: TestRunsRepository;

  beforeAll(async () => {
    setup = await openDispatchTestDatabase('vap_campaigns_test_runs');
    dataSource = setup.dataSource;
    repo = new TestRunsRepository(dataSource);
  }, 60_000);

  afterAll(async () => {
    await setup?.close();
  });

  /** A running run with two claimed attempts. */
  async function runWithTwoAttempts(): Promise<{ runId: string; attempts: TestAttemptRow[] }> {
    const runId = `trun_${randomUUID()}`;
    const partnerId = randomUUID();
    await dataSource.query(
      `INSERT INTO campaigns.test_runs (id, partner_id, agent_id, status, repetitions, scenarios)
       VALUES ($1, $2, $3, 'running', 1, '[]')`,
      [runId, partnerId, randomUUID()],
    );
    const attempts = (await dataSource.query(
      `INSERT INTO campaigns.test_attempts (id, run_id, partner_id, scenario_index, attempt, status, tries, lease_until)
       VALUES ($1, $3, $4, 0, 1, 'running', 1, now() + interval '1 minute'),
              ($2, $3, $4, 1, 1, 'running', 1, now() + interval '1 minute')
       RETURNING *`,
      [randomUUID(), randomUUID(), runId, partnerId],
    )) as TestAttemptRow[];
    return { runId, attempts };
  }

  it('completes every run whose last two attempts finish together', async () => {
    const runs = await Promise.all(Array.from({ length: 20 }, () => runWithTwoAttempts()));
    await Promise.all(
      runs.flatMap(({ attempts }) => attempts.map((a) => repo.finish(a, 'passed', null, null))),
    );
    const rows = (await dataSource.query(`SELECT id, status FROM campaigns.test_runs WHERE id = ANY($1)`, [
      runs.map((r) => r.runId),
    ])) as { id: string; status: string }[];
    expect(rows.filter((r) => r.status !== 'completed')).toEqual([]);
    expect(rows).toHaveLength(runs.length);
  });
});
