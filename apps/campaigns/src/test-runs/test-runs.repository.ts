import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { TestAttemptStatus } from '@vap/api';
import { tableOf, wakeAfterCommit } from '@vap/persistence';
import { AttemptResult, TestAttemptRow, TestRunRow } from './test-run-rows';

/** Wakes this replica's test runner after a run's attempts are committed. */
export const TEST_ATTEMPTS_CHANNEL = 'campaigns_test_attempts';

/** An attempt as the runner works on it, with its run. */
export interface ClaimedAttempt {
  attempt: TestAttemptRow;
  run: TestRunRow;
}

/** SQL of the test runner's queue (campaigns.test_attempts). */
@Injectable()
export class TestRunsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Claims up to `limit` due attempts, at most `perAccount` running per account: queued ones, and running ones
   * whose lease ran out (their replica died). Claims are serialised by an advisory lock, so the per-account count
   * holds across replicas.
   */
  async claim(limit: number, perAccount: number, leaseMs: number): Promise<ClaimedAttempt[]> {
    return this.dataSource.transaction(async (em) => {
      await em.query(`SELECT pg_advisory_xact_lock(hashtext('campaigns.test_attempts.claim'))`);
      const attempts = tableOf(em, 'test_attempts');
      const claimed = (await em.query(
        `WITH live AS (
           SELECT partner_id, count(*)::int AS n FROM ${attempts}
           WHERE status = 'running' AND lease_until > now() GROUP BY partner_id
         ), due AS (
           SELECT a.id, a.partner_id, coalesce(live.n, 0) AS n,
                  row_number() OVER (PARTITION BY a.partner_id ORDER BY a.due_at, a.id) AS rank
           FROM ${attempts} a LEFT JOIN live ON live.partner_id = a.partner_id
           WHERE (a.status = 'queued' AND a.due_at <= now()) OR (a.status = 'running' AND a.lease_until <= now())
         ), picked AS (
           SELECT id FROM due WHERE n + rank <= $2 ORDER BY rank, id LIMIT $1
         )
         UPDATE ${attempts} a SET status = 'running', tries = a.tries + 1,
           lease_until = now() + make_interval(secs => $3::double precision / 1000),
           started_at = coalesce(a.started_at, now())
         FROM picked WHERE a.id = picked.id
         RETURNING a.*`,
        [limit, perAccount, leaseMs],
      )) as [TestAttemptRow[], number];
      const rows = claimed[0];
      if (!rows.length) return [];
      const runIds = [...new Set(rows.map((r) => r.run_id))];
      const runs = (await em.query(
        `UPDATE ${tableOf(em, 'test_runs')} SET status = CASE WHEN status = 'queued' THEN 'running' ELSE status END
         WHERE id = ANY($1) RETURNING *`,
        [runIds],
      )) as [TestRunRow[], number];
      const byId = new Map(runs[0].map((r) => [r.id, r]));
      return rows.map((attempt) => ({ attempt, run: byId.get(attempt.run_id)! }));
    });
  }

  /** Keeps a claim while the attempt runs; false once it is no longer this runner's (finished or reclaimed). */
  async renew(attempt: TestAttemptRow, leaseMs: number): Promise<boolean> {
    const em = this.dataSource.manager;
    const [, count] = (await em.query(
      `UPDATE ${tableOf(em, 'test_attempts')} SET lease_until = now() + make_interval(secs => $3::double precision / 1000)
       WHERE id = $1 AND status = 'running' AND tries = $2`,
      [attempt.id, attempt.tries, leaseMs],
    )) as [unknown, number];
    return count > 0;
  }

  async setSession(attempt: TestAttemptRow, sessionId: string): Promise<void> {
    const em = this.dataSource.manager;
    await em.query(
      `UPDATE ${tableOf(em, 'test_attempts')} SET session_id = $2 WHERE id = $1 AND status = 'running' AND tries = $3`,
      [attempt.id, sessionId, attempt.tries],
    );
  }

  /** Back in the queue after `delayMs` (the account's calls were all busy). */
  async requeue(attempt: TestAttemptRow, delayMs: number): Promise<void> {
    const em = this.dataSource.manager;
    await em.query(
      `UPDATE ${tableOf(em, 'test_attempts')} SET status = 'queued', lease_until = NULL,
         due_at = now() + make_interval(secs => $3::double precision / 1000)
       WHERE id = $1 AND status = 'running' AND tries = $2`,
      [attempt.id, attempt.tries, delayMs],
    );
  }

  /** Records the attempt's outcome (fenced by its claim) and completes the run when it was the last. */
  async finish(
    attempt: TestAttemptRow,
    status: Extract<TestAttemptStatus, 'passed' | 'failed' | 'error'>,
    result: AttemptResult | null,
    error: string | null,
  ): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      const [, count] = (await em.query(
        `UPDATE ${tableOf(em, 'test_attempts')} SET status = $3, result = $4, error = $5, finished_at = now(),
           lease_until = NULL
         WHERE id = $1 AND status = 'running' AND tries = $2`,
        [attempt.id, attempt.tries, status, result === null ? null : JSON.stringify(result), error],
      )) as [unknown, number];
      if (!count) return;
      await this.completeIfDone(em, attempt.run_id);
    });
  }

  /**
   * The run's row is locked before its attempts are counted: two attempts finishing at once would otherwise
   * each count the other as running (neither committed) and leave the run running for good. Locked, the later
   * one waits for the earlier one's commit, then counts it finished. (Attempt row, then run row: the order of
   * claim too.)
   */
  private async completeIfDone(em: EntityManager, runId: string): Promise<void> {
    await em.query(`SELECT 1 FROM ${tableOf(em, 'test_runs')} WHERE id = $1 FOR UPDATE`, [runId]);
    await em.query(
      `UPDATE ${tableOf(em, 'test_runs')} SET status = 'completed', completed_at = now()
       WHERE id = $1 AND status <> 'completed' AND NOT EXISTS (
         SELECT 1 FROM ${tableOf(em, 'test_attempts')} WHERE run_id = $1 AND status IN ('queued', 'running'))`,
      [runId],
    );
  }

  /** Wakes the runner once the transaction that queued attempts commits. */
  wake(em: EntityManager): void {
    wakeAfterCommit(em, TEST_ATTEMPTS_CHANNEL);
  }
}
