// Delivery workers as replicas: two webhooks services share one queue without sending any delivery twice,
// and a replica killed in the middle of a send loses nothing: once its lease runs out another replica sends
// the delivery again under the same X-Webhook-Id. Runs webhooks services of its own (own database and
// subject prefix), driven over NATS the way the gateway drives them.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { connect, JSONCodec, NatsConnection } from 'nats';
import { CONNECT_FAILED_MESSAGE } from '@vap/egress';
import {
  createTestDatabase,
  deleteJetStreamByPrefix,
  freePort,
  ServiceHandle,
  startService,
  TestDatabase,
  waitFor,
} from '@vap/testing';
import { e2eEnv } from '../../support';
import { statusData } from './webhook-fixtures';
import { verifySignature, WebhookReceiver } from './webhook-receiver';

const codec = JSONCodec();

describe('webhook delivery replicas', () => {
  let db: TestDatabase;
  let prefix: string;
  let nc: NatsConnection;
  let receiver: WebhookReceiver;
  const replicas: ServiceHandle[] = [];
  const partnerId = randomUUID();

  async function replica(name: string, env: Record<string, string> = {}): Promise<ServiceHandle> {
    const e2e = e2eEnv();
    const handle = await startService('webhooks', {
      port: await freePort(),
      label: name,
      logFile: e2e.logDir ? join(e2e.logDir, `webhooks-${name}.log`) : undefined,
      env: {
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        DATABASE_URL: db.url,
        NATS_URL: e2e.natsUrl,
        NATS_SUBJECT_PREFIX: prefix,
        SECRETS_KEY: e2e.secretsKey,
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        NODE_EXTRA_CA_CERTS: process.env.E2E_TLS_CA,
        WEBHOOK_RETRY_SCHEDULE: '1s,1s,1s',
        WEBHOOK_RETRY_JITTER: '0',
        WEBHOOK_POLL_MS: '100',
        ...env,
      },
    });
    replicas.push(handle);
    return handle;
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async function command(subject: string, data: unknown): Promise<any> {
    const msg = await nc.request(
      `${prefix}.${subject}`,
      codec.encode({ partnerId, requestId: randomUUID(), data }),
      {
        timeout: 5000,
      },
    );
    const reply = codec.decode(msg.data) as { ok: boolean; data?: unknown; error?: unknown };
    if (!reply.ok) throw new Error(`${subject}: ${JSON.stringify(reply.error)}`);
    return reply.data;
  }

  async function publish(data: Record<string, unknown>): Promise<string> {
    const id = randomUUID();
    const event = {
      id,
      subject: 'events.call.status_updated',
      partnerId,
      occurredAt: new Date().toISOString(),
      data,
    };
    await nc.jetstream().publish(`${prefix}.events.call.status_updated`, codec.encode(event), { msgID: id });
    return id;
  }

  beforeAll(async () => {
    const env = e2eEnv();
    db = await createTestDatabase(env.databaseUrl, 'vap_e2e_webhooks');
    prefix = `${env.natsPrefix}_webhooks`;
    nc = await connect({ servers: env.natsUrl, name: 'e2e-webhooks-replicas' });
    receiver = await WebhookReceiver.start();
  }, 60_000);

  afterAll(async () => {
    for (const r of replicas) await r.stop().catch(() => undefined);
    await receiver?.close();
    await nc?.close();
    await db?.drop();
    if (prefix) await deleteJetStreamByPrefix(e2eEnv().natsUrl, prefix).catch(() => undefined);
  });

  it('a replica killed mid-send loses nothing: another one resends under the same X-Webhook-Id', async () => {
    // A short lease (longer than the send's timeout, as the boot check requires): the delivery is still in
    // flight at the kill, and soon claimable once the killed replica no longer renews it.
    const first = await replica('a', { WEBHOOK_TIMEOUT_MS: '2500', WEBHOOK_LEASE_MS: '3000' });
    const endpoint = await command('webhooks.endpoint.create', {
      label: 'kill-test',
      url: receiver.at('kill'),
    });
    receiver.answer = (req, n) => (req.path === '/kill' && n === 1 ? { delayMs: 60_000 } : {});
    await publish(statusData(null));
    const [held] = await receiver.waitFor(1, (r) => r.path === '/kill');
    await first.stop('SIGKILL');

    await replica('b');
    const [, resent] = await receiver.waitFor(2, (r) => r.path === '/kill', 20_000);
    expect(resent.headers['x-webhook-id']).toBe(held.headers['x-webhook-id']);
    expect(resent.rawBody).toBe(held.rawBody);
    expect(verifySignature(resent, endpoint.secret)).toBe(true);
    // The outcome is recorded after the receiver answers: wait for it rather than race it.
    const detail = await waitFor(
      async () => {
        const d = await command('webhooks.delivery.get', { id: held.headers['x-webhook-id'] });
        return d.status !== 'delivering' ? d : undefined;
      },
      { timeoutMs: 10_000, description: 'the resend to be recorded' },
    );
    expect(detail).toMatchObject({ status: 'succeeded', attempts: 2 });
  }, 90_000);

  it('two replicas share the queue without sending any delivery twice', async () => {
    await replica('c'); // with b from the test before: two live replicas
    receiver.answer = () => ({});
    const endpoints = [];
    for (const label of ['share-1', 'share-2']) {
      endpoints.push(await command('webhooks.endpoint.create', { label, url: receiver.at(label) }));
    }
    const count = 150;
    for (let n = 0; n < count; n++) await publish(statusData(null));
    const got = await receiver.waitFor(count * 2, (r) => r.path.startsWith('/share-'), 60_000);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const all = receiver.requests.filter((r) => r.path.startsWith('/share-'));
    expect(all).toHaveLength(count * 2);
    expect(new Set(all.map((r) => r.headers['x-webhook-id'])).size).toBe(count * 2);
    expect(got.length).toBe(count * 2);
  }, 120_000);
  it('refuses private-network targets, named or literal, unless WEBHOOK_ALLOW_PRIVATE_NETWORKS is true', async () => {
    for (const r of replicas) await r.stop().catch(() => undefined);
    await replica('guarded', { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false' });
    receiver.answer = () => ({});
    const before = receiver.requests.length;
    // An IP literal is refused before connecting; a name is refused on the addresses DNS gives at connect time.
    const literal = await command('webhooks.endpoint.create', {
      label: 'private-ip',
      url: receiver.at('private-ip'),
    });
    const named = await command('webhooks.endpoint.create', {
      label: 'private-name',
      url: `${receiver.url.replace('127.0.0.1', 'localhost')}/private-name`,
    });
    // A name that does not resolve reads exactly as a refused address: the history maps no internal names.
    // (The account's five endpoints are in use by the tests before: one goes first.)
    const { endpoints } = (await command('webhooks.endpoint.list', {})) as {
      endpoints: Array<{ id: string }>;
    };
    await command('webhooks.endpoint.delete', { id: endpoints[0].id });
    const unresolvable = await command('webhooks.endpoint.create', {
      label: 'unresolvable',
      url: 'https://no-such-host.invalid/hook',
    });
    for (const endpoint of [literal, named, unresolvable]) {
      const test = await command('webhooks.endpoint.test', { id: endpoint.id });
      const detail = await waitFor(
        async () => {
          const d = await command('webhooks.delivery.get', { id: test.id });
          return d.attempt_history.length > 0 ? d : undefined;
        },
        { timeoutMs: 10_000, description: 'the first attempt' },
      );
      expect(detail.attempt_history[0]).toMatchObject({ status_code: null, outcome: 'failed' });
      expect(detail.attempt_history[0].error).toBe(CONNECT_FAILED_MESSAGE);
      // The partner reads this error: it says the target is not allowed, never what it resolved to.
      expect(detail.attempt_history[0].error).not.toMatch(/127\.0\.0\.1|::1/);
    }
    expect(receiver.requests.length).toBe(before);
  }, 60_000);
});
