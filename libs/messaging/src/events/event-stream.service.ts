import { Inject, Injectable, Logger } from '@nestjs/common';
import { nanos, RetentionPolicy, StorageType } from 'nats';
import { EVENT_SUBJECT_ROOT } from '@vap/messages';
import { NatsConnectionService } from '../nats-connection.service';
import { DEFAULT_EVENT_RETENTION_MS, MESSAGING_OPTIONS, MessagingOptions } from '../messaging.options';

/**
 * The JetStream stream that carries every domain event. Each service makes sure it exists at start, with
 * the configured retention (max age), and sets that retention on a stream made earlier with another one.
 */
@Injectable()
export class EventStreamService {
  private readonly logger = new Logger(EventStreamService.name);
  private ensured?: Promise<void>;

  constructor(
    private readonly nats: NatsConnectionService,
    @Inject(MESSAGING_OPTIONS) private readonly options: MessagingOptions,
  ) {}

  /** The configured max age of the stream's events. */
  get retentionMs(): number {
    return this.options.eventRetentionMs ?? DEFAULT_EVENT_RETENTION_MS;
  }

  ensure(): Promise<void> {
    this.ensured ??= this.create().catch((err) => {
      this.ensured = undefined;
      throw err;
    });
    return this.ensured;
  }

  /** The max age the stream has now (0: unlimited), as JetStream reports it. */
  async currentMaxAgeMs(): Promise<number> {
    const jsm = await this.nats.jsm();
    const info = await jsm.streams.info(this.nats.streamName);
    return Math.floor(info.config.max_age / 1_000_000);
  }

  private async create(): Promise<void> {
    const jsm = await this.nats.jsm();
    const name = this.nats.streamName;
    const maxAge = nanos(this.retentionMs);
    const existing = await jsm.streams.info(name).catch(() => undefined);
    if (existing) {
      if (existing.config.max_age !== maxAge) {
        await jsm.streams.update(name, { max_age: maxAge });
        this.logger.warn(
          `event stream ${name}: retention changed from ${existing.config.max_age / 1e6} ms to ${this.retentionMs} ms`,
        );
      }
      return;
    }
    try {
      await jsm.streams.add({
        name,
        subjects: [this.nats.subject(`${EVENT_SUBJECT_ROOT}.>`)],
        storage: StorageType.File,
        retention: RetentionPolicy.Limits,
        max_age: maxAge,
        duplicate_window: 2 * 60 * 1_000_000_000,
      });
    } catch (err) {
      // Another replica may have created it in the meantime.
      await jsm.streams.info(name).catch(() => {
        throw err;
      });
    }
  }
}
