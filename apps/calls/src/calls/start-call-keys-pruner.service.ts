import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { deleteInBatches, tableOf } from '@vap/persistence';
import { RETENTION_HOURS } from './start-call-keys';

const INTERVAL_MS = 60 * 60 * 1000;

/**
 * Deletes Idempotency-Key bindings older than their retention: an expired key no longer names its call, and
 * every campaign dial binds one, so without this the table grows by a row per call for ever. Replicas may
 * prune at once (deleteInBatches).
 */
@Injectable()
export class StartCallKeysPruner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(StartCallKeysPruner.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  onApplicationBootstrap(): void {
    // Replicas started together spread their first runs over the interval.
    const tick = () => {
      this.running = this.prune().catch((err) =>
        this.logger.warn(`pruning expired Idempotency-Keys failed, will retry: ${(err as Error).message}`),
      );
    };
    this.timer = setTimeout(
      () => {
        tick();
        this.timer = setInterval(tick, INTERVAL_MS).unref();
      },
      Math.floor(Math.random() * INTERVAL_MS),
    ).unref();
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
    clearTimeout(this.timer);
    clearInterval(this.timer);
    await this.running;
  }
}
