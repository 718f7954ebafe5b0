import { BeforeApplicationShutdown, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { ClaimLoop, ClaimLoopOptions, tableOf, wakeAfterCommit } from '@vap/persistence';

/** A claimed row of a calls-service queue: the call it is about and which attempt this is. */
export interface QueuedCall {
  call_id: string;
  attempts: number;
}

/**
 * A calls-service work queue: a table with one row a call (call_id, status, attempts, run_after,
 * updated_at) and the channel its enqueue wakes (wakeAfterCommit).
 */
export interface CallWorkQueue {
  /** The queue's table in the service's schema (see tableOf). */
  table: 'post_call_jobs' | 'carrier_reconciliations' | 'post_call_hook_jobs';
  channel: string;
  /** A claimed row is leased for this long; a replica that dies mid-run leaves it to another after it. */
  leaseSeconds: number;
  /** Further columns a claim answers besides call_id and attempts. */
  columns?: string[];
}

/** Wakes this process's workers of the queue at commit, when the row is visible (other replicas poll). */
export function notifyQueued(em: EntityManager, queue: CallWorkQueue): void {
  wakeAfterCommit(em, queue.channel);
}

/**
 * Claims up to `limit` due rows with FOR UPDATE SKIP LOCKED, counting the attempt and leasing each by
 * pushing run_after ahead, so that any number of replicas share the queue and a crashed one's rows come back.
 */
export async function claimDue<T extends QueuedCall>(
  dataSource: DataSource,
  queue: CallWorkQueue,
  limit: number,
): Promise<T[]> {
  const columns = ['call_id', 'attempts', ...(queue.columns ?? [])].map((c) => `q.${c}`).join(', ');
  const table = tableOf(dataSource, queue.table);
  // An UPDATE ... RETURNING answers [rows, affected count] through TypeORM.
  const [rows] = (await dataSource.query(
    `UPDATE ${table} q
        SET attempts = q.attempts + 1, run_after = now() + make_interval(secs => $2), updated_at = now()
      WHERE q.call_id IN (
        SELECT call_id FROM ${table}
         WHERE status = 'queued' AND run_after <= now()
         ORDER BY run_after
         LIMIT $1
         FOR UPDATE SKIP LOCKED)
      RETURNING ${columns}`,
    [limit, queue.leaseSeconds],
  )) as [T[], number];
  return rows;
}

/**
 * A worker on a calls-service queue, on the shared claim loop: it wakes when an enqueue commits, polls
 * for retries and expired leases, and on shutdown takes nothing new and finishes the rows it holds.
 */
export abstract class CallQueueWorker<T extends QueuedCall>
  implements OnApplicationBootstrap, BeforeApplicationShutdown
{
  protected readonly logger: Logger;
  private readonly loop: ClaimLoop<T>;

  protected constructor(
    dataSource: DataSource,
    queue: CallWorkQueue,
    options: Pick<ClaimLoopOptions<T>, 'label' | 'pollMs' | 'concurrency'> & { logger: string },
  ) {
    this.logger = new Logger(options.logger);
    this.loop = new ClaimLoop<T>({
      label: options.label,
      pollMs: options.pollMs,
      concurrency: options.concurrency,
      channel: queue.channel,
      claim: (limit) => claimDue<T>(dataSource, queue, limit),
      run: (row) => this.run(row),
      log: this.logger,
    });
  }

  /** Works on one claimed row and records its outcome in the queue. */
  protected abstract run(row: T): Promise<void>;

  onApplicationBootstrap(): Promise<void> {
    return this.loop.start();
  }

  // Before the database pool closes, so that rows in progress can record their outcome.
  beforeApplicationShutdown(): Promise<void> {
    return this.loop.stop();
  }
}
