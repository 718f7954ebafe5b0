// A rolling restart of the webhooks service under load: replicas are replaced one at a time with SIGTERM
// while call events keep arriving. Every event must reach the endpoint exactly once: a draining replica
// finishes the deliveries it holds and hands nothing half-done to the next one. Runs webhooks services of
// its own (own database and subject prefix), driven over NATS the way the gateway and calls drive them.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { connect, JSONCodec, NatsConnection } from 'nats';
import {
  createTestDatabase,
  deleteJetStreamByPrefix,
  freePort,
  ServiceHandle,
  startService,
  TestDatabase,
} from '@vap/testing';
import { e2eEnv } from '../../support';
import { statusData } from '../webhooks/webhook-fixtures';
import { verifySignature, WebhookReceiver } from '../webhooks/webhook-receiver';

const codec = JSONCodec();

describe('webhook deliveries across a rolling restart', () => {
  const env = e2eEnv();
  const partnerId = randomUUID();
  const prefix = `${env.natsPrefix}_rolling`;
  let db: TestDatabase;
  let nc: NatsConnection;
  let receiver: WebhookReceiver;
  const replicas: ServiceHandle[] = [];

  async function replica(name: string): Promise<ServiceHandle> {
    const handle = await startService('webhooks', {
      port: await freePort(),
      label: name,
      logFile: join(env.logDir, `webhooks-rolling-${name}.log`),
      env: {
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        DATABASE_URL: db.url,
        NATS_URL: env.natsUrl,
        NATS_SUBJECT_PREFIX: prefix,
        SECRETS_KEY: env.secretsKey,
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        NODE_EXTRA_CA_CERTS: process.env.E2E_TLS_CA,
        WEBHOOK_POLL_MS: '100',
        SHUTDOWN_TIMEOUT_MS: '15000',
      },
    });
    replicas.push(handle);
    return handle;
  }

  beforeAll(async () => {
    db = await createTestDatabase(env.databaseUrl, 'vap_e2e_rolling');
    nc = await connect({ servers: env.natsUrl, name: 'e2e-rolling-restart' });
    receiver = await WebhookReceiver.start();
  }, 60_000);

  afterAll(async () => {
    for (const r of replicas) await r.stop().catch(() => undefined);
    await receiver?.close();
    await nc?.close();
    await db?.drop();
    await deleteJetStreamByPrefix(env.natsUrl, prefix).catch(() => undefined);
  });

  it('delivers every event exactly once while each replica is replaced', async () => {
    const [a, b] = [await replica('a'), await replica('b')];
    const created = await nc.request(
      `${prefix}.webhooks.endpoint.create`,
      codec.encode({
        partnerId,
        requestId: randomUUID(),
        data: { label: 'rolling', url: receiver.at('rolling') },
      }),
      { timeout: 5000 },
    );
    const endpoint = (codec.decode(created.data) as { data: { secret: string } }).data;
    // Each answer takes a moment, so deliveries are in flight whenever a replica is told to stop.
    receiver.answer = () => ({ delayMs: 50 });

    const total = 300;
    const publishing = (async () => {
      for (let n = 0; n < total; n++) {
        const id = randomUUID();
        const event = {
          id,
          subject: 'events.call.status_updated',
          partnerId,
          occurredAt: new Date().toISOString(),
          data: statusData(null),
        };
        await nc
          .jetstream()
          .publish(`${prefix}.events.call.status_updated`, codec.encode(event), { msgID: id });
        if (n % 10 === 9) await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const arrived = (count: number) => receiver.waitFor(count, (r) => r.path === '/rolling', 60_000);

    await arrived(40);
    const exits = [await a.stop('SIGTERM')];
    await replica('c');
    await arrived(120);
    exits.push(await b.stop('SIGTERM'));
    await replica('d');
    await publishing;
    await arrived(total);
    // Anything sent twice would arrive shortly after the last one.
    await new Promise((r) => setTimeout(r, 1500));

    const got = receiver.requests.filter((r) => r.path === '/rolling');
    expect(exits).toEqual([
      { code: 0, signal: null },
      { code: 0, signal: null },
    ]);
    expect(new Set(got.map((r) => r.headers['x-webhook-id'])).size).toBe(total);
    expect(got).toHaveLength(total);
    expect(got.every((r) => verifySignature(r, endpoint.secret))).toBe(true);
  }, 180_000);
});
