import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { VoiceReplicaHeartbeat } from '@vap/messages';
import { HeartbeatBucket, NatsConnectionService } from '@vap/messaging';

/**
 * This voice replica's identity and proof of life. Its id goes with every stream it attaches
 * (calls.voice.attach), and it beats in the VoiceReplicaHeartbeat bucket from before it takes the first
 * stream until its drain is over, so the calls service can tell when a replica holding calls was killed and
 * end those calls (their media is gone with it).
 */
@Injectable()
export class ReplicaHeartbeat {
  private readonly logger = new Logger('ReplicaHeartbeat');
  readonly id = randomUUID();
  private readonly bucket: HeartbeatBucket;
  private timer?: NodeJS.Timeout;
  private stopped = false;

  constructor(nats: NatsConnectionService) {
    this.bucket = new HeartbeatBucket(nats, VoiceReplicaHeartbeat);
  }

  /** The first beat is awaited: a replica that cannot prove it is alive must not take calls. */
  async start(): Promise<void> {
    await this.bucket.beat(this.id);
    this.schedule();
  }

  /** Signs off, once the replica holds no calls. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.bucket
      .remove(this.id)
      .catch((err: Error) => this.logger.warn(`could not sign off the heartbeat: ${err.message}`));
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.bucket
        .beat(this.id)
        // A missed beat or two is within the lapse; NATS reconnects meanwhile.
        .catch((err: Error) => this.logger.warn(`heartbeat failed: ${err.message}`))
        .finally(() => this.schedule());
    }, VoiceReplicaHeartbeat.intervalMs);
    this.timer.unref();
  }
}
