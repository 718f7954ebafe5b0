import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { deleteInBatches, tableOf } from '@vap/persistence';
import { PeriodicTask } from '@vap/runtime';
import { AgentsConfig } from '../config/agents.config';
import { IntegrationLog } from './entities/integration-log.entity';

const INTERVAL_MS = 60 * 60 * 1000;

/**
 * Deletes integration log entries older than INTEGRATION_LOG_RETENTION_DAYS: every partner request adds a
 * row (a call can make dozens), so without this the table grows for ever. Replicas may prune at once
 * (deleteInBatches).
 */
@Injectable()
export class IntegrationLogsPruner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(IntegrationLogsPruner.name);
  private task?: PeriodicTask;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: AgentsConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.task = new PeriodicTask({
      label: 'pruning the integration log',
      intervalMs: INTERVAL_MS,
      spreadFirstRun: true,
      unref: true,
      run: () => this.prune(),
      log: { error: (message) => this.logger.warn(`${message}; will retry`) },
    });
    this.task.start();
  }

  /** Deletes every entry past the retention, batch by batch; returns how many went. */
  async prune(): Promise<number> {
    const total = await deleteInBatches(
      this.dataSource,
      tableOf(this.dataSource, IntegrationLog),
      'started_at < now() - make_interval(days => $1)',
      [this.config.INTEGRATION_LOG_RETENTION_DAYS],
    );
    if (total > 0) this.logger.log(`pruned ${total} integration log entr${total === 1 ? 'y' : 'ies'}`);
    return total;
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.task?.stop();
  }
}
