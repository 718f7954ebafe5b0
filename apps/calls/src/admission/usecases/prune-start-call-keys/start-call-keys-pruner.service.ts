import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { deleteInBatches, tableOf } from '@vap/persistence';
import { PeriodicTask } from '@vap/runtime';
import { RETENTION_HOURS } from '../../start-call-keys';

const INTERVAL_MS = 60 * 60 * 1000;

/**
 * Deletes Idempotency-Key bindings older than their retention: an expired key no longer names its call, and
 * every campaign dial binds one, so without this the table grows by a row per call for ever. Replicas may
 * prune at once (deleteInBatches).
 */
@Injectable()
export class StartCallKeysPruner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(StartCallKeysPruner.name);
  private task?: PeriodicTask;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  onApplicationBootstrap(): void {
    this.task = new PeriodicTask({
      label: 'pruning expired Idempotency-Keys',
      intervalMs: INTERVAL_MS,
      spreadFirstRun: true,
      unref: true,
      run: () => this.prune(),
      log: { error: (message) => this.logger.warn(`${message}; will retry`) },
    });
    this.task.start();
  }

  /** Deletes every expired binding, batch by batch; returns how many went. */
  async prune(): Promise<number> {
    const total = await deleteInBatches(
      this.dataSource,
      tableOf(this.dataSource, 'start_call_keys'),
      'created_at <= now() - make_interval(hours => $1)',
      [RETENTION_HOURS],
    );
    if (total > 0) this.logger.log(`pruned ${total} expired Idempotency-Key binding(s)`);
    return total;
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.task?.stop();
  }
}
