import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CallsConfig } from '../config/calls.config';
import { PostCallProcessor } from './post-call-processor.service';

const BATCH = 8;
/** A claimed job is leased for this long; a replica that dies mid-job leaves it to another after it. */
const LEASE_SECONDS = 120;
const MAX_ATTEMPTS = 8;

/**
 * Drains calls.post_call_jobs. Jobs are claimed with FOR UPDATE SKIP LOCKED and leased by pushing
 * run_after forward, so any number of replicas share the queue and a crashed one's jobs come back.
 */
@Injectable()
export class PostCallWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(PostCallWorker.name);
  private timer?: NodeJS.Timeout;
  private current?: Promise<void>;
  private stopped = false;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: CallsConfig,
    private readonly processor: PostCallProcessor,
  ) {}

  onApplicationBootstrap(): void {
    this.schedule(0);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.current = this.tick().finally(() => (this.current = undefined));
    }, ms);
  }

  private async tick(): Promise<void> {
    let claimed = 0;
    try {
      const jobs = await this.claim();
      claimed = jobs.length;
      await Promise.all(jobs.map((job) => this.run(job.call_id, job.attempts)));
    } catch (err) {
      this.logger.error(`post-call poll failed: ${(err as Error).message}`);
    }
    this.schedule(claimed === BATCH ? 0 : this.config.POST_CALL_POLL_MS);
  }

  private async claim(): Promise<{ call_id: string; attempts: number }[]> {
    // An UPDATE ... RETURNING answers [rows, affected count] through TypeORM.
    const [rows] = (await this.dataSource.query(
      `UPDATE calls.post_call_jobs j
          SET attempts = j.attempts + 1, run_after = now() + make_interval(secs => $2), updated_at = now()
        WHERE j.call_id IN (
          SELECT call_id FROM calls.post_call_jobs
           WHERE status = 'queued' AND run_after <= now()
           ORDER BY run_after
           LIMIT $1
           FOR UPDATE SKIP LOCKED)
        RETURNING j.call_id, j.attempts`,
      [BATCH, LEASE_SECONDS],
    )) as [{ call_id: string; attempts: number }[], number];
    return rows;
  }

  private async run(callId: string, attempts: number): Promise<void> {
    try {
      await this.processor.process(callId, attempts);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const dead = attempts >= MAX_ATTEMPTS;
      this.logger.error(
        `post-call of ${callId} failed (attempt ${attempts}${dead ? ', giving up' : ''}): ${message}`,
      );
      await this.dataSource.query(
        `UPDATE calls.post_call_jobs
            SET status = $2, last_error = $3, run_after = now() + make_interval(secs => $4), updated_at = now()
          WHERE call_id = $1`,
        [callId, dead ? 'dead' : 'queued', message.slice(0, 1000), Math.min(300, 2 ** attempts)],
      );
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.current;
  }
}
