import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource, QueryRunner } from 'typeorm';
import { ClaimLoop } from '@vap/persistence';
import { headers as natsHeaders } from 'nats';
import { MessageHeaders } from '@vap/messages';
import { NatsConnectionService } from '../nats-connection.service';
import { EventStreamService } from '../events/event-stream.service';
import { encodeJson } from '../codec';
import { OutboxRecord } from './outbox-record.entity';
import { outboxChannel } from './outbox-channel';
import { measureOutboxLagWith, outboxPublished } from '../messaging.metrics';

const BATCH = 100;
const POLL_MS = 1000;
const RETENTION_HOURS = 24;

/** Up to BATCH unpublished rows, locked by the open transaction of `runner` until they are marked. */
interface ClaimedBatch {
  runner: QueryRunner;
  rows: OutboxRecord[];
}

/**
 * Publishes committed outbox rows to JetStream with Nats-Msg-Id = event id. Rows are claimed with
 * FOR UPDATE SKIP LOCKED, so replicas relay in parallel without publishing a row twice; a crash after
 * publish and before marking is absorbed by JetStream's duplicate window and the consumers' inbox.
 * Each batch is locked, published in created_at order (pipelined) and marked in one transaction; one pass
 * at a time.
 */
@Injectable()
export class OutboxRelayService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(OutboxRelayService.name);
  private readonly loop: ClaimLoop<ClaimedBatch>;
  private lastCleanup = 0;
  /** After a failed batch the rows are still due: wait for the next poll rather than retry at once. */
  private pausedUntil = 0;
  private resume?: NodeJS.Timeout;

  constructor(
    private readonly dataSource: DataSource,
    private readonly nats: NatsConnectionService,
    private readonly stream: EventStreamService,
  ) {
    // Rows recorded in this process wake the relay at their commit; polling relays every other row
    // (another replica's, one recorded before a restart).
    this.loop = new ClaimLoop<ClaimedBatch>({
      label: 'outbox',
      channel: outboxChannel(dataSource),
      pollMs: POLL_MS,
      // One batch at a time keeps the rows of one replica in order on the stream.
      concurrency: 1,
      // A pass relays until no row is left, so a claim right after it would find none.
      drains: true,
      claim: () => this.claimBatch(),
      run: (batch) => this.relayPass(batch),
      log: this.logger,
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.stream.ensure();
    await this.loop.start();
    // Measured when scraped, so the gauge is exact and costs nothing between scrapes.
    measureOutboxLagWith(() => this.lagSeconds());
  }

  /** Relays now, or right after the pass in progress, until no unpublished row is left. */
  wake(): void {
    this.loop.wake();
  }

  /** Locks the first batch of a relay pass; none left means the backlog is relayed, a moment to tidy up. */
  private async claimBatch(): Promise<ClaimedBatch[]> {
    const pause = this.pausedUntil - Date.now();
    if (pause > 0) {
      // A wake during the pause must not wait for the next poll: it comes back when the pause ends.
      if (!this.resume) {
        this.resume = setTimeout(() => {
          this.resume = undefined;
          this.loop.wake();
        }, pause);
        this.resume.unref();
      }
      return [];
    }
    const batch = await this.lockBatch();
    if (batch) return [batch];
    await this.cleanup();
    return [];
  }

  /**
   * A relay pass: publishes the claimed batch and the ones after it until no unpublished row is left, so
   * that a shutdown waits for the whole backlog it found. A failure ends the pass; the rows stay due.
   */
  private async relayPass(first: ClaimedBatch): Promise<void> {
    try {
      let batch: ClaimedBatch | null = first;
      while (batch) {
        const published = await this.publishBatch(batch);
        batch = published === BATCH ? await this.lockBatch() : null;
      }
    } catch (err) {
      this.logger.warn(`outbox relay pass failed, will retry: ${(err as Error).message}`);
      this.pausedUntil = Date.now() + POLL_MS / 2;
    }
  }

  /** Opens a transaction and locks the oldest unpublished rows other relays have not locked; null for none. */
  private async lockBatch(): Promise<ClaimedBatch | null> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      const rows = await runner.manager
        .createQueryBuilder(OutboxRecord, 'o')
        .where('o.published_at IS NULL')
        .orderBy('o.created_at', 'ASC')
        .limit(BATCH)
        .setLock('pessimistic_write')
        .setOnLocked('skip_locked')
        .getMany();
      if (rows.length) return { runner, rows };
      await runner.rollbackTransaction();
    } catch (err) {
      if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      await runner.release();
      throw err;
    }
    await runner.release();
    return null;
  }

  /** Publishes the locked rows in order and marks them published; a failure rolls back, leaving them due. */
  private async publishBatch({ runner, rows }: ClaimedBatch): Promise<number> {
    try {
      const js = this.nats.js();
      // All in flight at once: one connection keeps them in order on the stream, and the acks come back
      // together instead of one round trip each. A failure leaves every row due; the duplicate window
      // absorbs those that were stored.
      await Promise.all(
        rows.map((row) => {
          const h = natsHeaders();
          if (row.event.requestId) h.set(MessageHeaders.requestId, row.event.requestId);
          return js.publish(this.nats.subject(row.subject), encodeJson(row.event), {
            msgID: row.id,
            headers: h,
          });
        }),
      );
      await runner.manager
        .createQueryBuilder()
        .update(OutboxRecord)
        .set({ publishedAt: () => 'now()' })
        .whereInIds(rows.map((r) => r.id))
        .execute();
      await runner.commitTransaction();
      outboxPublished.inc(rows.length);
      return rows.length;
    } catch (err) {
      await runner.rollbackTransaction().catch(() => undefined);
      throw err;
    } finally {
      await runner.release();
    }
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
    await this.loop.stop();
  }
}
