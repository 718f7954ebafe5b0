import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import { deleteInBatches, tableOf } from '@vap/persistence';
import { EventStreamService } from '../events/event-stream.service';
import { MESSAGING_OPTIONS, MessagingOptions } from '../messaging.options';
import { InboxRecord } from './inbox-record.entity';

const DEFAULT_INTERVAL_MS = 60 * 60 * 1000;
/** Kept past the stream's max age, for clocks of Postgres and NATS that disagree. */
const MARGIN_MS = 60 * 60 * 1000;

/**
 * Deletes inbox rows (handled event ids) that no redelivery can need any more: an event handled longer ago
 * than the stream's max age was published before that and is gone from the stream. The age is read from
 * JetStream, not from this service's setting, so a longer retention set by another service is respected.
 */
@Injectable()
export class InboxPrunerService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(InboxPrunerService.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly stream: EventStreamService,
    @Inject(MESSAGING_OPTIONS) private readonly options: MessagingOptions,
  ) {}

  onApplicationBootstrap(): void {
    const interval = this.options.inboxPruneIntervalMs ?? DEFAULT_INTERVAL_MS;
    // Replicas started together spread their first runs over the interval. (PeriodicTask with spreadFirstRun
    // does this in the apps; @vap/runtime sits above this lib, so the inbox keeps its own two timers.)
    const first = Math.floor(Math.random() * interval);
    const tick = () => {
      this.running = this.prune().catch((err) =>
        this.logger.warn(`pruning the inbox failed, will retry: ${(err as Error).message}`),
      );
    };
    this.timer = setTimeout(() => {
      tick();
      this.timer = setInterval(tick, interval).unref();
    }, first).unref();
  }

  /** Deletes every prunable row, batch by batch; returns how many went. */
  async prune(): Promise<number> {
    const maxAgeMs = await this.stream.currentMaxAgeMs();
    if (maxAgeMs <= 0) return 0; // a stream without a max age can redeliver anything
    const total = await deleteInBatches(
      this.dataSource,
      tableOf(this.dataSource, InboxRecord),
      `processed_at < now() - $1 * interval '1 millisecond'`,
      [maxAgeMs + MARGIN_MS],
    );
    if (total > 0) this.logger.log(`pruned ${total} handled event id(s) past the stream's retention`);
    return total;
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearTimeout(this.timer);
    clearInterval(this.timer);
    await this.running;
  }
}
