import type { KV } from 'nats';
import { NatsConnectionService } from '../nats-connection.service';
import { kvBucketName } from '../nats-permissions';

export interface HeartbeatBucketSpec {
  /** The bucket's name before the deployment's prefix. */
  bucket: string;
  /** What was not put again within this long is gone. */
  lapseMs: number;
}

/**
 * Replicas' proof of life in a JetStream key-value bucket whose entries expire (max age): a replica puts its
 * id again and again while it runs and deletes it when it stops on purpose, so an id that is absent names a
 * replica that stopped or lost its way to NATS for longer than the lapse. Unlike a subscription, which
 * vanishes with any reconnect, the entry outlives short network blips; unlike a lock in Postgres, it needs
 * no database, which the voice service has none of.
 */
export class HeartbeatBucket {
  private opening?: Promise<KV>;

  /** `now` is the service's clock (epoch ms), against which the bucket's age is read. */
  constructor(
    private readonly nats: NatsConnectionService,
    private readonly spec: HeartbeatBucketSpec,
    private readonly now: () => number = Date.now,
  ) {}

  /** The bucket's name in this deployment (the subject prefix keeps test platforms apart). */
  get name(): string {
    return kvBucketName(this.spec.bucket, this.nats.options.subjectPrefix);
  }

  /** Records that `id` is alive now. */
  async beat(id: string): Promise<void> {
    await this.using((kv) => kv.put(id, String(Date.now())));
  }

  /**
   * True while `id`'s last beat is younger than the lapse and it has not signed off. A bucket younger than the
   * lapse (created just now, e.g. after NATS lost its storage) cannot tell a dead replica from one that has not
   * beaten into it yet, so every id counts as alive until it is that old.
   */
  async isAlive(id: string): Promise<boolean> {
    return this.using(async (kv) => {
      const entry = await kv.get(id);
      if (entry !== null && entry.operation === 'PUT') return true;
      const { streamInfo } = await kv.status();
      return this.now() - Date.parse(streamInfo.created) < this.spec.lapseMs;
    });
  }

  /** A replica that stops on purpose signs off at once rather than waiting for the lapse. */
  async remove(id: string): Promise<void> {
    await this.using((kv) => kv.delete(id));
  }

  /** Runs `op` on the bucket; after a failure the bucket is opened (or created) again next time. */
  private async using<T>(op: (kv: KV) => Promise<T>): Promise<T> {
    const opening = this.open();
    try {
      return await op(await opening);
    } catch (err) {
      if (this.opening === opening) this.opening = undefined;
      throw err;
    }
  }

  private open(): Promise<KV> {
    // Either side may create the bucket, with the same settings.
    this.opening ??= this.nats.js().views.kv(this.name, { ttl: this.spec.lapseMs, history: 1 });
    return this.opening;
  }
}
