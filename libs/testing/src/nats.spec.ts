import { randomBytes } from 'node:crypto';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { createServer, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventStreamName, KV_BUCKETS, kvBucketName, kvStreamName } from '@vap/messages';
import { AckPolicy, connect, JetStreamManager, NatsConnection } from 'nats';
import { deleteJetStreamByPrefix, NO_NATS_SERVER_MESSAGE, resolveNats } from './nats';
import { canConnect, freePort } from './ports';

describe('resolveNats', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'vap-nats-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('fails with a one-line message saying how to get a server when there is none', async () => {
    const closedPort = await freePort();
    const attempt = resolveNats({
      dataDir: dir,
      env: {},
      probe: { host: '127.0.0.1', port: closedPort },
      searchPath: [dir], // an empty folder: no nats-server binary
    });
    const error: Error = await attempt.then(
      () => {
        throw new Error('expected resolveNats to fail');
      },
      (err: Error) => err,
    );
    expect(error.message).toBe(NO_NATS_SERVER_MESSAGE);
    expect(error.message).not.toContain('\n');
    expect(error.message).toMatch(/NATS_URL/);
    expect(error.message).toMatch(/install nats-server/);
  });

  it('uses NATS_URL as given, without probing', async () => {
    const nats = await resolveNats({
      dataDir: dir,
      env: { NATS_URL: 'nats://nats.internal:4222' },
      searchPath: [],
    });
    expect(nats).toMatchObject({ url: 'nats://nats.internal:4222', source: 'env' });
    await nats.stop();
  });

  it('uses the local server when the probed port accepts connections', async () => {
    const server: Server = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const nats = await resolveNats({
        dataDir: dir,
        env: {},
        probe: { host: '127.0.0.1', port },
        searchPath: [],
      });
      expect(nats).toMatchObject({ url: `nats://127.0.0.1:${port}`, source: 'local' });
    } finally {
      server.close();
    }
  });

  const natsServerOnPath = [...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/usr/local/sbin'].some(
    (d) => {
      try {
        accessSync(join(d, 'nats-server'), constants.X_OK);
        return true;
      } catch {
        return false;
      }
    },
  );

  (natsServerOnPath ? it : it.skip)(
    'starts nats-server on a free port when nothing answers, and stops it',
    async () => {
      const closedPort = await freePort();
      const nats = await resolveNats({
        dataDir: dir,
        env: { PATH: process.env.PATH },
        probe: { host: '127.0.0.1', port: closedPort },
      });
      expect(nats.source).toBe('spawned');
      const port = Number(new URL(nats.url).port);
      expect(port).not.toBe(closedPort);
      expect(await canConnect('127.0.0.1', port)).toBe(true);
      await nats.stop();
      expect(await canConnect('127.0.0.1', port)).toBe(false);
    },
  );
});

describe('deleteJetStreamByPrefix', () => {
  const NATS_URL = process.env.NATS_URL || 'nats://127.0.0.1:4222';
  // Two platforms side by side, one's prefix the start of the other's name (as the e2e billing runs were).
  const prefix = `x${randomBytes(3).toString('hex')}_billing`;
  const beside = `${prefix}_model_usage`;
  let nc: NatsConnection;
  let jsm: JetStreamManager;

  beforeAll(async () => {
    nc = await connect({ servers: NATS_URL });
    jsm = await nc.jetstreamManager();
  });
  afterAll(async () => {
    await deleteJetStreamByPrefix(NATS_URL, beside, { buckets: ['spec_bucket'] }).catch(() => undefined);
    await deleteJetStreamByPrefix(NATS_URL, prefix, { buckets: ['spec_bucket'] }).catch(() => undefined);
    await nc?.close();
  });

  /** What a platform under `p` makes: its event stream with a consumer, its buckets, a stream of its subjects. */
  async function platformStreams(p: string): Promise<string[]> {
    await jsm.streams.add({ name: eventStreamName(p), subjects: [`${p}.events.>`] });
    await jsm.consumers.add(eventStreamName(p), { durable_name: 'calls', ack_policy: AckPolicy.Explicit });
    for (const bucket of [...KV_BUCKETS, 'spec_bucket'])
      await nc.jetstream().views.kv(kvBucketName(bucket, p));
    await jsm.streams.add({ name: `${p}_ANYTHING`, subjects: [`${p}.anything.>`] });
    return [
      eventStreamName(p),
      ...KV_BUCKETS.map((bucket) => kvStreamName(bucket, p)),
      kvStreamName('spec_bucket', p),
      `${p}_ANYTHING`,
    ];
  }

  const streamsNow = async () => {
    const names: string[] = [];
    for await (const name of jsm.streams.names()) if (name.includes(prefix)) names.push(name);
    return names;
  };

  it("deletes a prefix's own streams and consumers, not those of a prefix that starts with it", async () => {
    const own = await platformStreams(prefix);
    const theirs = await platformStreams(beside);
    expect(KV_BUCKETS.length).toBeGreaterThan(0);
    expect(await streamsNow()).toEqual(expect.arrayContaining([...own, ...theirs]));

    const deleted = await deleteJetStreamByPrefix(NATS_URL, prefix, { buckets: ['spec_bucket'] });

    expect([...deleted.streams].sort()).toEqual([...own].sort());
    expect(deleted.consumers).toEqual([`${eventStreamName(prefix)}/calls`]);
    expect((await streamsNow()).sort()).toEqual([...theirs].sort());
    await expect(jsm.consumers.info(eventStreamName(beside), 'calls')).resolves.toBeDefined();
  });

  it("leaves a bucket it was not told of: one outside the platform's is the caller's to name", async () => {
    const p = `${prefix}_alone`;
    await nc.jetstream().views.kv(kvBucketName('spec_bucket', p));
    expect((await deleteJetStreamByPrefix(NATS_URL, p)).streams).toEqual([]);
    expect((await deleteJetStreamByPrefix(NATS_URL, p, { buckets: ['spec_bucket'] })).streams).toEqual([
      kvStreamName('spec_bucket', p),
    ]);
  });
});
