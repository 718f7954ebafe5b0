import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import {
  CreateTestRunDto,
  ListTestRunsQueryDto,
  TEST_RUNS_ACTIVE_PER_ACCOUNT,
  TestRunDto,
  TestRunListDto,
} from '@vap/api';
import { AppError, ErrorCode, PartnerContext, TestRunId } from '@vap/messages';
import { KeysetColumns, KeysetPager, tableOf } from '@vap/persistence';
import { CampaignReferences } from '../campaigns/campaign-references';
import { PartnerSnapshots } from '../partners/partner-snapshots';
import { snapshotOf } from '../test-scenarios/test-scenario-row';
import { TestScenariosService } from '../test-scenarios/test-scenarios.service';
import { TestAttemptRow, TestRunRow, toTestRunDto } from './test-run-rows';
import { TestRunsRepository } from './test-runs.repository';

/** Test runs: created queued with one attempt per scenario and repetition; the runner plays them. */
@Injectable()
export class TestRunsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly refs: CampaignReferences,
    private readonly scenarios: TestScenariosService,
    private readonly snapshots: PartnerSnapshots,
    private readonly repo: TestRunsRepository,
  ) {}

  async create(partner: PartnerContext, input: CreateTestRunDto): Promise<TestRunDto> {
    // 404 for an agent or a scenario that is not the account's.
    await this.refs.agent(partner.id, input.agent_id);
    const scenarios = await Promise.all(input.scenario_ids.map((id) => this.scenarios.find(partner.id, id)));
    // The runner opens sessions for the account with no request behind them: the latest view of the account.
    await this.snapshots.save(partner);
    const repetitions = input.repetitions ?? 1;
    const id = TestRunId.format(randomUUID());
    return this.dataSource.transaction(async (em) => {
      await em.query(`SELECT pg_advisory_xact_lock(hashtext('test_runs:' || $1))`, [partner.id]);
      const [{ count }] = (await em.query(
        `SELECT count(*)::int AS count FROM ${tableOf(em, 'test_runs')} WHERE partner_id = $1 AND status <> 'completed'`,
        [partner.id],
      )) as { count: number }[];
      if (count >= TEST_RUNS_ACTIVE_PER_ACCOUNT) {
        throw new AppError(
          ErrorCode.LIMIT_REACHED,
          `An account runs at most ${TEST_RUNS_ACTIVE_PER_ACCOUNT} test runs at once; create this one when one completes`,
        );
      }
      await em.query(
        `INSERT INTO ${tableOf(em, 'test_runs')} (id, partner_id, agent_id, repetitions, scenarios)
         VALUES ($1, $2, $3, $4, $5)`,
        [id, partner.id, input.agent_id, repetitions, JSON.stringify(scenarios.map(snapshotOf))],
      );
      const ids: string[] = [];
      const indexes: number[] = [];
      const attempts: number[] = [];
      scenarios.forEach((_, index) => {
        for (let attempt = 1; attempt <= repetitions; attempt++) {
          ids.push(randomUUID());
          indexes.push(index);
          attempts.push(attempt);
        }
      });
      await em.query(
        `INSERT INTO ${tableOf(em, 'test_attempts')} (id, run_id, partner_id, scenario_index, attempt)
         SELECT a.id, $1, $2, a.scenario_index, a.attempt
         FROM unnest($3::uuid[], $4::int[], $5::int[]) AS a(id, scenario_index, attempt)`,
        [id, partner.id, ids, indexes, attempts],
      );
      this.repo.wake(em);
      // Read before the commit: once it lands the runner may claim an attempt at once, and the answer is the run
      // as created (queued), not whatever the runner made of it a moment later.
      return this.read(em, partner.id, id);
    });
  }

  async get(partnerId: string, id: string): Promise<TestRunDto> {
    return this.dataSource.transaction('REPEATABLE READ', (em) => this.read(em, partnerId, id));
  }

  private async read(em: EntityManager, partnerId: string, id: string): Promise<TestRunDto> {
    const [run] = (await em.query(
      `SELECT * FROM ${tableOf(em, 'test_runs')} WHERE id = $1 AND partner_id = $2`,
      [id, partnerId],
    )) as TestRunRow[];
    if (!run) throw AppError.notFound('Test run');
    const attempts = (await em.query(`SELECT * FROM ${tableOf(em, 'test_attempts')} WHERE run_id = $1`, [
      id,
    ])) as TestAttemptRow[];
    return toTestRunDto(run, attempts);
  }

  async list(partnerId: string, query: ListTestRunsQueryDto): Promise<TestRunListDto> {
    return this.dataSource.transaction('REPEATABLE READ', async (em) => {
      const pager = new KeysetPager(query, { idKind: 'prefixed', direction: 'DESC' });
      const params: unknown[] = [partnerId, pager.fetch];
      let where = 'partner_id = $1';
      if (query.agent_id) {
        params.push(query.agent_id);
        where += ` AND agent_id = $${params.length}`;
      }
      if (query.status) {
        params.push(query.status);
        where += ` AND status = $${params.length}`;
      }
      const after = pager.condition((value) => {
        params.push(value);
        return `$${params.length}`;
      });
      if (after) where += ` AND ${after}`;
      const rows = (await em.query(
        `SELECT *, ${pager.select} FROM ${tableOf(em, 'test_runs')} WHERE ${where} ORDER BY ${pager.orderBy} LIMIT $2`,
        params,
      )) as (TestRunRow & KeysetColumns)[];
      const page = pager.page(rows);
      const attempts = page.rows.length
        ? ((await em.query(`SELECT * FROM ${tableOf(em, 'test_attempts')} WHERE run_id = ANY($1)`, [
            page.rows.map((r) => r.id),
          ])) as TestAttemptRow[])
        : [];
      return {
        runs: page.rows.map((run) =>
          toTestRunDto(
            run,
            attempts.filter((a) => a.run_id === run.id),
          ),
        ),
        next_cursor: page.nextCursor,
      };
    });
  }
}
