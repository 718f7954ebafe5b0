import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { tableOf } from '@vap/persistence';
import { KnowledgeConfig } from '../../config/knowledge.config';
import { ClaimedKbJob, KbJobKind, LeaseLostError, NewKbJob } from './kb-job';

/** LISTEN/NOTIFY channel that wakes idle workers when a job is queued. */
export const KB_JOBS_CHANNEL = 'agents_kb_jobs';

interface ClaimedRow {
  id: string;
  kind: KbJobKind;
  partner_id: string;
  link_id: string | null;
  document_id: string | null;
  attempts: number;
  max_attempts: number;
  locked_by: string;
}

/**
 * The knowledge base's job queue in Postgres. Workers claim due jobs with FOR UPDATE SKIP LOCKED, so
 * replicas never take the same job; a claim is a lease that the worker renews while it works, and a job
 * whose lease ran out (its worker crashed or hung) becomes claimable again. Every write after the claim is
 * fenced by the claim's token, so a worker that lost its lease cannot finish or reschedule the job.
 */
@Injectable()
export class KbJobsRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: KnowledgeConfig,
  ) {}

  /** Queues a job in the caller's transaction: it exists exactly when the change that needs it commits. */
  async enqueue(em: EntityManager, job: NewKbJob): Promise<void> {
    await em.query(
      `INSERT INTO ${tableOf(em, 'kb_jobs')} (id, kind, partner_id, link_id, document_id, max_attempts, run_at)
       VALUES ($1, $2, $3, $4, $5, $6, coalesce($7::timestamptz, now()))`,
      [
        randomUUID(),
        job.kind,
        job.partnerId,
        job.linkId ?? null,
        job.documentId ?? null,
        this.config.KB_JOB_MAX_ATTEMPTS,
        job.runAt ?? null,
      ],
    );
    // Delivered at commit, so a worker wakes exactly when the row is visible.
    await em.query(`SELECT pg_notify($1, '')`, [KB_JOBS_CHANNEL]);
  }

  async claim(workerId: string, limit: number): Promise<ClaimedKbJob[]> {
    const [rows] = (await this.dataSource.query(
      `WITH due AS (
         SELECT id FROM ${tableOf(this.dataSource, 'kb_jobs')}
         WHERE (status = 'queued' AND run_at <= now()) OR (status = 'running' AND locked_until < now())
         ORDER BY run_at
         LIMIT $2
         FOR UPDATE SKIP LOCKED
       )
       UPDATE ${tableOf(this.dataSource, 'kb_jobs')} j
       SET status = 'running', attempts = j.attempts + 1, locked_by = $1 || ':' || gen_random_uuid(),
           locked_until = now() + $3 * interval '1 millisecond', updated_at = now()
       FROM due WHERE j.id = due.id
       RETURNING j.id, j.kind, j.partner_id, j.link_id, j.document_id, j.attempts, j.max_attempts, j.locked_by`,
      [workerId, limit, this.config.KB_JOB_LEASE_MS],
    )) as [ClaimedRow[], number];
    return rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      partnerId: r.partner_id,
      linkId: r.link_id,
      documentId: r.document_id,
      attempts: r.attempts,
      maxAttempts: r.max_attempts,
      token: r.locked_by,
    }));
  }

  /** Extends the lease; false when the job is no longer this claim's. */
  async renew(job: ClaimedKbJob): Promise<boolean> {
    const [, count] = (await this.dataSource.query(
      `UPDATE ${tableOf(this.dataSource, 'kb_jobs')} SET locked_until = now() + $3 * interval '1 millisecond'
       WHERE id = $1 AND locked_by = $2 AND status = 'running'`,
      [job.id, job.token, this.config.KB_JOB_LEASE_MS],
    )) as [unknown, number];
    return count === 1;
  }

  /** Removes the finished job, in the transaction of its result; throws LeaseLostError when not ours. */
  async finish(em: EntityManager, job: ClaimedKbJob): Promise<void> {
    const [, count] = (await em.query(
      `DELETE FROM ${tableOf(em, 'kb_jobs')} WHERE id = $1 AND locked_by = $2`,
      [job.id, job.token],
    )) as [unknown, number];
    if (count !== 1) throw new LeaseLostError(job.id);
  }

  /** Schedules the next attempt after `delayMs`; false when the job is no longer this claim's. */
  async retry(em: EntityManager, job: ClaimedKbJob, error: string, delayMs: number): Promise<boolean> {
    const [, count] = (await em.query(
      `UPDATE ${tableOf(em, 'kb_jobs')}
       SET status = 'queued', run_at = now() + $3 * interval '1 millisecond', locked_by = NULL,
           locked_until = NULL, last_error = $4, updated_at = now()
       WHERE id = $1 AND locked_by = $2`,
      [job.id, job.token, delayMs, error],
    )) as [unknown, number];
    return count === 1;
  }

  /** Gives the job up; it stays in the table, failed, for inspection. */
  async fail(em: EntityManager, job: ClaimedKbJob, error: string): Promise<boolean> {
    const [, count] = (await em.query(
      `UPDATE ${tableOf(em, 'kb_jobs')}
       SET status = 'failed', locked_by = NULL, locked_until = NULL, last_error = $3, updated_at = now()
       WHERE id = $1 AND locked_by = $2`,
      [job.id, job.token, error],
    )) as [unknown, number];
    return count === 1;
  }
}
