import { Injectable } from '@nestjs/common';
import { RetentionPolicy, StorageType } from 'nats';
import { EVENT_SUBJECT_ROOT } from '@vap/contracts';
import { NatsConnectionService } from '../nats-connection.service';

const DAY_NS = 24 * 60 * 60 * 1_000_000_000;

/** The JetStream stream that carries every domain event. Each service makes sure it exists at start. */
@Injectable()
export class EventStreamService {
  private ensured?: Promise<void>;

  constructor(private readonly nats: NatsConnectionService) {}

  ensure(): Promise<void> {
    this.ensured ??= this.create().catch((err) => {
      this.ensured = undefined;
      throw err;
    });
    return this.ensured;
  }

  private async create(): Promise<void> {
    const jsm = await this.nats.jsm();
    const name = this.nats.streamName;
    try {
      await jsm.streams.info(name);
      return;
    } catch {
      // Not there yet: create it below.
    }
    try {
      await jsm.streams.add({
        name,
        subjects: [this.nats.subject(`${EVENT_SUBJECT_ROOT}.>`)],
        storage: StorageType.File,
        retention: RetentionPolicy.Limits,
        max_age: 7 * DAY_NS,
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
