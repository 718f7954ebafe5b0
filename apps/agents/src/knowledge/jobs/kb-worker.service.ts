import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { DataSource } from 'typeorm';
import { ClaimLoop } from '@vap/persistence';
import { KnowledgeConfig } from '../../config/knowledge.config';
import { ClaimedKbJob, KB_JOB_HANDLERS, KbJobHandler, LeaseLostError, PermanentJobError } from './kb-job';
import { KB_JOBS_CHANNEL, KbJobsRepository } from './kb-jobs.repository';

const MAX_RETRY_DELAY_MS = 15 * 60 * 1000;

/** Delay before attempt n+1: base, then four times longer each time, capped. */
export function retryDelayMs(baseMs: number, attempts: number): number {
  return Math.min(MAX_RETRY_DELAY_MS, baseMs * 4 ** Math.max(0, attempts - 1));
}

function errorText(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).slice(0, 1000);
}

/**
 * Runs knowledge-base jobs in this replica, up to KB_WORKER_CONCURRENCY at once. It wakes on NOTIFY when a
 * job is queued and polls for due retries and expired leases; every replica runs one, and the queue's
 * SKIP LOCKED claims keep them from doing the same job twice.
 */
@Injectable()
export class KbWorkerService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('KbWorker');
  private readonly workerId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly handlers: Map<string, KbJobHandler>;
  private readonly loop: ClaimLoop<ClaimedKbJob>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly jobs: KbJobsRepository,
    private readonly config: KnowledgeConfig,
    @Inject(KB_JOB_HANDLERS) handlers: KbJobHandler[],
  ) {
    this.handlers = new Map(handlers.map((h) => [h.kind, h]));
    this.loop = new ClaimLoop({
      label: 'knowledge-base jobs',
      channel: KB_JOBS_CHANNEL,
      // Jobs are few and slow, and any replica may take one: enqueue sends NOTIFY to wake them all.
      listen: { databaseUrl: (dataSource.options as { url?: string }).url },
      pollMs: config.KB_JOB_POLL_MS,
      concurrency: config.KB_WORKER_CONCURRENCY,
      claim: (limit) => this.jobs.claim(this.workerId, limit),
      // Renewed while the job runs, so that a slow job is not taken over by another worker.
      lease: { renewEveryMs: Math.floor(config.KB_JOB_LEASE_MS / 3), renew: (job) => this.jobs.renew(job) },
      run: (job) => this.execute(job),
      log: this.logger,
    });
  }

  onApplicationBootstrap(): Promise<void> {
    return this.loop.start();
  }

  private async execute(job: ClaimedKbJob): Promise<void> {
    const handler = this.handlers.get(job.kind);
    try {
      if (!handler) throw new PermanentJobError(`no handler for job kind ${job.kind}`);
      if (job.attempts > job.maxAttempts) {
        // Claimed again after its lease ran out as often as it may be tried: its worker keeps dying on it.
        throw new PermanentJobError(`gave up after ${job.maxAttempts} attempts`);
      }
      await handler.run(job, (em) => this.jobs.finish(em, job));
    } catch (err) {
      await this.settleFailure(job, handler, err);
    }
  }

  private async settleFailure(
    job: ClaimedKbJob,
    handler: KbJobHandler | undefined,
    err: unknown,
  ): Promise<void> {
    if (err instanceof LeaseLostError) {
      this.logger.warn(
        `job ${job.id} (${job.kind}) was taken over by another worker; its result is discarded`,
      );
      return;
    }
    const message = errorText(err);
    const permanent = err instanceof PermanentJobError;
    try {
      await this.dataSource.transaction(async (em) => {
        if (!permanent && job.attempts < job.maxAttempts) {
          const delay = retryDelayMs(this.config.KB_JOB_RETRY_BASE_MS, job.attempts);
          if (await this.jobs.retry(em, job, message, delay)) await handler?.onRetry?.(job, message, em);
          this.logger.warn(
            `job ${job.id} (${job.kind}) attempt ${job.attempts} failed, retrying in ${delay} ms: ${message}`,
          );
        } else {
          if (await this.jobs.fail(em, job, message)) await handler?.onGiveUp?.(job, message, em);
          this.logger.warn(
            `job ${job.id} (${job.kind}) failed for good after ${job.attempts} attempt(s): ${message}`,
          );
        }
      });
    } catch (settleErr) {
      // The lease runs out and the job is claimed again; nothing is lost.
      this.logger.error(`recording the failure of job ${job.id} failed: ${errorText(settleErr)}`);
    }
  }

  // Before the database pool closes, so that jobs in progress can record their outcome.
  beforeApplicationShutdown(): Promise<void> {
    return this.loop.stop();
  }
}
