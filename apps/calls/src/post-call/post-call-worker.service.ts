import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { tableOf } from '@vap/persistence';
import { CallsConfig } from '../config/calls.config';
import { CallQueueWorker, QueuedCall } from '../work-queue/call-work-queue';
import { PostCallProcessor } from './post-call-processor.service';
import { POST_CALL_JOBS } from '../work-queue/post-call-jobs';
import { PostCallNotReady } from './post-call-not-ready';

/** How many post-call jobs this replica works on at once. */
const CONCURRENCY = 8;
const MAX_ATTEMPTS = 8;

/**
 * Drains calls.post_call_jobs on the shared claim loop: wakes when a call ends, polls every
 * POST_CALL_POLL_MS for retries and expired leases, and on shutdown finishes the jobs it holds.
 */
@Injectable()
export class PostCallWorker extends CallQueueWorker<QueuedCall> {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    config: CallsConfig,
    private readonly processor: PostCallProcessor,
  ) {
    super(dataSource, POST_CALL_JOBS, {
      label: 'post-call jobs',
      logger: PostCallWorker.name,
      pollMs: config.POST_CALL_POLL_MS,
      concurrency: CONCURRENCY,
    });
  }

  protected async run({ call_id: callId, attempts }: QueuedCall): Promise<void> {
    try {
      await this.processor.process(callId, attempts);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const dead = attempts >= MAX_ATTEMPTS;
      if (err instanceof PostCallNotReady) this.logger.log(`post-call of ${callId}: ${message}`);
      else
        this.logger.error(
          `post-call of ${callId} failed (attempt ${attempts}${dead ? ', giving up' : ''}): ${message}`,
        );
      await this.dataSource.query(
        `UPDATE ${tableOf(this.dataSource, 'post_call_jobs')}
            SET status = $2, last_error = $3, run_after = now() + make_interval(secs => $4), updated_at = now()
          WHERE call_id = $1`,
        [callId, dead ? 'dead' : 'queued', message.slice(0, 1000), Math.min(300, 2 ** attempts)],
      );
    }
  }
}
