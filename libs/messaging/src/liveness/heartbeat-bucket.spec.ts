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
    // The buckets below are this spec's own, not the platform's: name them for the clean-up.
    const buckets = ['replicas_a', 'replicas_b', 'replicas_c', 'replicas_d'];
    await deleteJetStreamByPrefix(NATS_URL, prefix, { buckets }).catch(() => undefined);
  });

  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it("is named after the deployment's prefix, either side may open it first, and a new one tells no death", async () => {
    const spec = { bucket: 'replicas_a', lapseMs: 1000 };
    const watcher = new HeartbeatBucket(other, spec);
    expect(watcher.name).toBe(`${prefix}_replicas_a`);
    // Just created: a replica may not have beaten into it yet, so nobody counts as gone.
    const unknown = randomUUID();
    expect(await watcher.isAlive(unknown)).toBe(true);
    const id = randomUUID();
    await new HeartbeatBucket(nats, spec).beat(id);
    expect(await watcher.isAlive(id)).toBe(true);
    await sleep(1100);
    expect(await watcher.isAlive(unknown)).toBe(false);
  });

  it('an id is alive while it beats, and gone once it signs off', async () => {
    const beats = new HeartbeatBucket(nats, { bucket: 'replicas_b', lapseMs: 1000 });
    const id = randomUUID();
    await beats.beat(id);
    await sleep(1100);
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
      await sleep(400);
    }
    // The one that kept beating is there; the one that beat once 1.6 s ago is not.
    expect(await watcher.isAlive(steady)).toBe(true);
    expect(await watcher.isAlive(id)).toBe(false);
  });

  it('a bucket lost with NATS storage is made again by the next beat', async () => {
    const spec = { bucket: 'replicas_d', lapseMs: 1000 };
    const beats = new HeartbeatBucket(nats, spec);
    const id = randomUUID();
    await beats.beat(id);
    await (await nats.jsm()).streams.delete(`KV_${beats.name}`);
    // The first beat after the loss fails; the one after it opens the bucket again.
    await expect(beats.beat(id)).rejects.toThrow();
    await beats.beat(id);
    expect(await beats.isAlive(id)).toBe(true);
  });
});
