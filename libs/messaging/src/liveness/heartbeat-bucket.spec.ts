// Replicas' heartbeats in a JetStream key-value bucket, against a real NATS server.
import { randomBytes, randomUUID } from 'node:crypto';
import { deleteJetStreamByPrefix } from '@vap/testing';
import { NatsConnectionService } from '../nats-connection.service';
import { HeartbeatBucket } from './heartbeat-bucket';

jest.setTimeout(20_000);

const NATS_URL = process.env.NATS_URL || 'nats://127.0.0.1:4222';

describe('HeartbeatBucket', () => {
  const prefix = `beats_${randomBytes(4).toString('hex')}`;
  let nats: NatsConnectionService;
  let other: NatsConnectionService;

  beforeAll(async () => {
    nats = new NatsConnectionService({ serviceName: 'voice', url: NATS_URL, subjectPrefix: prefix });
    other = new NatsConnectionService({ serviceName: 'calls', url: NATS_URL, subjectPrefix: prefix });
    await nats.onModuleInit();
    await other.onModuleInit();
  });

  afterAll(async () => {
    await nats?.onApplicationShutdown();
    await other?.onApplicationShutdown();
    await deleteJetStreamByPrefix(NATS_URL, prefix).catch(() => undefined);
  });

  it("is named after the deployment's prefix, and either side may open it first", async () => {
    const spec = { bucket: 'replicas_a', lapseMs: 5000 };
    const watcher = new HeartbeatBucket(other, spec);
    expect(watcher.name).toBe(`${prefix}_replicas_a`);
    expect(await watcher.isAlive(randomUUID())).toBe(false);
    const id = randomUUID();
    await new HeartbeatBucket(nats, spec).beat(id);
    expect(await watcher.isAlive(id)).toBe(true);
  });

  it('an id is alive while it beats, and gone once it signs off', async () => {
    const beats = new HeartbeatBucket(nats, { bucket: 'replicas_b', lapseMs: 5000 });
    const id = randomUUID();
    await beats.beat(id);
    expect(await beats.isAlive(id)).toBe(true);
    await beats.remove(id);
    expect(await beats.isAlive(id)).toBe(false);
  });

  it('an id that stops beating is gone once the lapse has passed', async () => {
    const spec = { bucket: 'replicas_c', lapseMs: 1000 };
    const beats = new HeartbeatBucket(nats, spec);
    const watcher = new HeartbeatBucket(other, spec);
    const id = randomUUID();
    const steady = randomUUID();
    await beats.beat(id);
    for (let i = 0; i < 4; i++) {
      await beats.beat(steady);
      await new Promise((resolve) => setTimeout(resolve, 400));
    }
    // The one that kept beating is there; the one that beat once 1.6 s ago is not.
    expect(await watcher.isAlive(steady)).toBe(true);
    expect(await watcher.isAlive(id)).toBe(false);
  });
});
