import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import {
  CreateTestScenarioDto,
  ListTestScenariosQueryDto,
  TEST_SCENARIOS_PER_ACCOUNT,
  TestScenarioDeletedDto,
  TestScenarioDto,
  TestScenarioListDto,
  UpdateTestScenarioDto,
} from '@vap/api';
import { AppError, ErrorCode, TestScenarioId } from '@vap/messages';
import { KeysetColumns, KeysetPager, tableOf } from '@vap/persistence';
import { judgeOf, linesOf, TestScenarioRow, toTestScenarioDto } from './test-scenario-row';

/** An account's test scenarios: at most TEST_SCENARIOS_PER_ACCOUNT, each read and written within the account. */
@Injectable()
export class TestScenariosService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async create(partnerId: string, input: CreateTestScenarioDto): Promise<TestScenarioDto> {
    const row = await this.dataSource.transaction(async (em) => {
      // Creates of one account queue here, so the count below cannot be raced past the bound.
      await em.query(`SELECT pg_advisory_xact_lock(hashtext('test_scenarios:' || $1))`, [partnerId]);
      const [{ count }] = (await em.query(
        `SELECT count(*)::int AS count FROM ${tableOf(em, 'test_scenarios')} WHERE partner_id = $1`,
        [partnerId],
      )) as { count: number }[];
      if (count >= TEST_SCENARIOS_PER_ACCOUNT) {
        throw new AppError(
          ErrorCode.LIMIT_REACHED,
          `An account holds at most ${TEST_SCENARIOS_PER_ACCOUNT} test scenarios; delete one to create another`,
        );
      }
      const [created] = (await em.query(
        `INSERT INTO ${tableOf(em, 'test_scenarios')}
           (id, partner_id, name, mode, persona, goal, lines, max_turns, variables, assertions, judge)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING *`,
        [
          TestScenarioId.format(randomUUID()),
          partnerId,
          input.name,
          input.mode,
          input.persona ?? '',
          input.goal ?? '',
          JSON.stringify(linesOf(input.lines)),
          input.max_turns ?? null,
          JSON.stringify(input.variables ?? {}),
          JSON.stringify(input.assertions ?? []),
          JSON.stringify(judgeOf(input.judge)),
        ],
      )) as TestScenarioRow[];
      return created;
    });
    return toTestScenarioDto(row);
  }

  async get(partnerId: string, id: string): Promise<TestScenarioDto> {
    return toTestScenarioDto(await this.find(partnerId, id));
  }

  async find(
    partnerId: string,
    id: string,
    em: EntityManager = this.dataSource.manager,
  ): Promise<TestScenarioRow> {
    const [row] = (await em.query(
      `SELECT * FROM ${tableOf(em, 'test_scenarios')} WHERE id = $1 AND partner_id = $2`,
      [id, partnerId],
    )) as TestScenarioRow[];
    if (!row) throw AppError.notFound('Test scenario');
    return row;
  }

  async list(partnerId: string, query: ListTestScenariosQueryDto): Promise<TestScenarioListDto> {
    const em = this.dataSource.manager;
    const pager = new KeysetPager(query, { idKind: 'prefixed', direction: 'DESC' });
    const params: unknown[] = [partnerId, pager.fetch];
    let where = 'partner_id = $1';
    const after = pager.condition((value) => {
      params.push(value);
      return `$${params.length}`;
    });
    if (after) where += ` AND ${after}`;
    const rows = (await em.query(
      `SELECT *, ${pager.select} FROM ${tableOf(em, 'test_scenarios')} WHERE ${where} ORDER BY ${pager.orderBy} LIMIT $2`,
      params,
    )) as (TestScenarioRow & KeysetColumns)[];
    const page = pager.page(rows);
    return { scenarios: page.rows.map(toTestScenarioDto), next_cursor: page.nextCursor };
  }

  async update(partnerId: string, id: string, changes: UpdateTestScenarioDto): Promise<TestScenarioDto> {
    const row = await this.dataSource.transaction(async (em) => {
      const current = await this.find(partnerId, id, em);
      const [updated] = (await em.query(
        `UPDATE ${tableOf(em, 'test_scenarios')} SET name = $3, mode = $4, persona = $5, goal = $6, lines = $7,
           max_turns = $8, variables = $9, assertions = $10, judge = $11, updated_at = now()
         WHERE id = $1 AND partner_id = $2 RETURNING *`,
        [
          id,
          partnerId,
          changes.name ?? current.name,
          changes.mode ?? current.mode,
          changes.persona ?? current.persona,
          changes.goal ?? current.goal,
          JSON.stringify(changes.lines ? linesOf(changes.lines) : current.lines),
          changes.max_turns ?? current.max_turns,
          JSON.stringify(changes.variables ?? current.variables),
          JSON.stringify(changes.assertions ?? current.assertions),
          JSON.stringify(changes.judge === undefined ? current.judge : judgeOf(changes.judge)),
        ],
      )) as [TestScenarioRow[], number];
      return updated[0];
    });
    return toTestScenarioDto(row);
  }

  /** Runs already created keep their own copy of the scenario, so deleting never changes their results. */
  async delete(partnerId: string, id: string): Promise<TestScenarioDeletedDto> {
    const em = this.dataSource.manager;
    const [, count] = (await em.query(
      `DELETE FROM ${tableOf(em, 'test_scenarios')} WHERE id = $1 AND partner_id = $2`,
      [id, partnerId],
    )) as [unknown, number];
    if (!count) throw AppError.notFound('Test scenario');
    return { scenario_id: id, deleted: true };
  }
}
