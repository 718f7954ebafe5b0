import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PgListener } from '@vap/persistence';
import { headers as natsHeaders } from 'nats';
import { MessageHeaders } from '@vap/contracts';
import { NatsConnectionService } from '../nats-connection.service';
import { EventStreamService } from '../events/event-stream.service';
import { encodeJson } from '../codec';
import { OutboxRecord } from './outbox-record.entity';
import { outboxChannel } from './outbox-channel';
import { measureOutboxLagWith, outboxPublished } from '../messaging.metrics';

const BATCH = 100;
const POLL_MS = 1000;
const RETENTION_HOURS = 24;

/**
 * Publishes committed outbox rows to JetStream with Nats-Msg-Id = event id. Rows are claimed with
 * FOR UPDATE SKIP LOCKED, so replicas relay in parallel without publishing a row twice; a crash after
 * publish and before marking is absorbed by JetStream's duplicate window and the consumers' inbox.
 */
@Injectable()
export class OutboxRelayService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(OutboxRelayService.name);
  private readonly listener: PgListener;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private stopped = false;
  private lastCleanup = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly nats: NatsConnectionService,
    private readonly stream: EventStreamService,
  ) {
    // Polling alone relays every row; LISTEN only makes it prompt.
    const options = dataSource.options as { url?: string; applicationName?: string };
    this.listener = new PgListener({
      databaseUrl: options.url,
      channel: outboxChannel(dataSource),
      applicationName: `${options.applicationName ?? 'service'}:outbox-listener`,
      label: 'outbox',
      onNotification: () => this.wake(),
      // Rows may have been committed while nobody listened.
      onListening: () => {
        if (this.timer) this.wake();
      },
      log: this.logger,
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.stream.ensure();
    await this.listener.start();
    if (this.stopped) return;
    this.timer = setInterval(() => this.wake(), POLL_MS);
    this.wake();
    // Measured when scraped, so the gauge is exact and costs nothing between scrapes.
    measureOutboxLagWith(() => this.lagSeconds());
  }

  /** Runs a relay pass now, or right after the one in progress. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.relayUntilEmpty()
      .then(() => undefined)
      .catch((err) => this.logger.warn(`outbox relay pass failed, will retry: ${(err as Error).message}`))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Relays until no unpublished row is left; returns how many it published. */
  async relayUntilEmpty(): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await this.relayBatch();
      total += n;
      if (n < BATCH) break;
    }
    await this.cleanup();
    return total;
  }

  private async relayBatch(): Promise<number> {
    return this.dataSource.transaction(async (em) => {
      const rows = await em
        .createQueryBuilder(OutboxRecord, 'o')
        .where('o.published_at IS NULL')
        .orderBy('o.created_at', 'ASC')
        .limit(BATCH)
        .setLock('pessimistic_write')
        .setOnLocked('skip_locked')
        .getMany();
      if (rows.length === 0) return 0;
      const js = this.nats.js();
      for (const row of rows) {
        const h = natsHeaders();
        if (row.event.requestId) h.set(MessageHeaders.requestId, row.event.requestId);
        await js.publish(this.nats.subject(row.subject), encodeJson(row.event), {
          msgID: row.id,
          headers: h,
        });
      }
      await em
        .createQueryBuilder()
        .update(OutboxRecord)
        .set({ publishedAt: () => 'now()' })
        .whereInIds(rows.map((r) => r.id))
        .execute();
      outboxPublished.inc(rows.length);
      return rows.length;
    });
  }

  private async cleanup(): Promise<void> {
    if (Date.now() - this.lastCleanup < 60 * 60 * 1000) return;
    this.lastCleanup = Date.now();
    await this.dataSource
      .createQueryBuilder()
      .delete()
      .from(OutboxRecord)
      .where(`published_at < now() - interval '${RETENTION_HOURS} hours'`)
      .execute();
  }

  /** Seconds the oldest unpublished event has waited (0 when none): the relay's lag. */
  async lagSeconds(): Promise<number> {
    const row = await this.dataSource
      .createQueryBuilder(OutboxRecord, 'o')
      .select('COALESCE(EXTRACT(EPOCH FROM now() - min(o.created_at)), 0)::float', 'lag')
      .where('o.published_at IS NULL')
      .getRawOne<{ lag: number }>();
    return Number(row?.lag ?? 0);
  }

  /**
   * Stops relaying and lets the pass in progress finish while NATS and Postgres are still open (they
   * close in onApplicationShutdown), so that a shutdown never leaves rows published but unmarked.
   */
  async beforeApplicationShutdown(): Promise<void> {
    measureOutboxLagWith(undefined);
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
    await this.listener.stop();
  }
}
