// Delivery leases against real Postgres and a real HTTPS receiver: two delivery workers (two replicas) share
// one queue while an endpoint answers more slowly than the lease. The boot check keeps WEBHOOK_LEASE_MS above
// WEBHOOK_TIMEOUT_MS; the config here skips it on purpose, since renewal must hold a send however long it runs.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, Server } from 'node:https';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// The module object itself (a namespace import would be a copy), so that the sender's connections see the patch.
import tls from 'node:tls';
import { DataSource } from 'typeorm';
import { createTestDatabase, TestDatabase } from '@vap/testing';
import { runMigrations } from '@vap/persistence';
import { AgentFlagService } from '../agent-flag/agent-flag.service';
import { WebhooksConfig } from '../config/webhooks.config';
import { webhooksDataSourceOptions } from '../database/data-source';
import { EndpointSecrets } from '../endpoints/endpoint-secrets';
import { DeliveryQueueRepository, InsertClaim } from './delivery-queue.repository';
import { DeliverySender } from './delivery-sender';
import { DeliveryWorkerService } from './delivery-worker.service';
import { EndpointHealthService } from './endpoint-health.service';

const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const LEASE_MS = 2000;
const SLOW_MS = 5000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('delivery leases', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  let certDir: string;
  let server: Server;
  let baseUrl: string;
  let config: WebhooksConfig;
  let tlsConnect: typeof tls.connect | undefined;
  const received: { id: string; at: number }[] = [];
  /** Requests whose connection closed, and whether the receiver had answered by then. */
  const closed: { id: string; answered: boolean }[] = [];
  const workers: DeliveryWorkerService[] = [];

  beforeAll(async () => {
    // A self-signed certificate for 127.0.0.1, which the receiver serves.
    certDir = mkdtempSync(join(tmpdir(), 'delivery-lease-'));
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'].concat(
        ['-keyout', 'key.pem', '-out', 'cert.pem', '-days', '1', '-subj', '/CN=127.0.0.1'],
        ['-addext', 'subjectAltName=IP:127.0.0.1'],
      ),
      { cwd: certDir, stdio: 'pipe' },
    );
    // The apps trust a test CA through NODE_EXTRA_CA_CERTS, read at process start; in this process the
    // TLS connections the sender opens trust the certificate by being handed it.
    const cert = readFileSync(join(certDir, 'cert.pem'), 'utf8');
    tlsConnect = tls.connect;
    const original = tlsConnect;
    (tls as { connect: typeof tls.connect }).connect = ((options: tls.ConnectionOptions, ...rest: never[]) =>
      original({ ...options, ca: [...tls.rootCertificates, cert] }, ...rest)) as typeof tls.connect;
    server = createServer(
      { cert: readFileSync(join(certDir, 'cert.pem')), key: readFileSync(join(certDir, 'key.pem')) },
      (req, res) => {
        const id = String(req.headers['x-webhook-id']);
        received.push({ id, at: Date.now() });
        res.on('close', () => closed.push({ id, answered: res.writableFinished }));
        req.resume();
        setTimeout(() => res.writeHead(200).end('ok'), req.url?.startsWith('/fast') ? 0 : SLOW_MS);
      },
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;

    db = await createTestDatabase(SERVER_URL, 'vap_webhook_lease');
    config = Object.assign(new WebhooksConfig(), {
      DATABASE_URL: db.url,
      SECRETS_KEY: 'a'.repeat(64),
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: true,
      WEBHOOK_TIMEOUT_MS: 10_000,
      WEBHOOK_LEASE_MS: LEASE_MS,
      WEBHOOK_POLL_MS: 50,
      WEBHOOK_DB_POOL_SIZE: 4,
    });
    await runMigrations(webhooksDataSourceOptions(config));
    dataSource = await new DataSource(webhooksDataSourceOptions(config)).initialize();
  }, 60_000);

  afterAll(async () => {
    for (const w of workers) await w.beforeApplicationShutdown().catch(() => undefined);
    await dataSource?.destroy();
    await db?.drop();
    await new Promise((resolve) => server?.close(resolve));
    server?.closeAllConnections();
    if (tlsConnect) (tls as { connect: typeof tls.connect }).connect = tlsConnect;
    rmSync(certDir, { recursive: true, force: true });
  });

  function startWorker(
    overrides: Partial<WebhooksConfig> = {},
    queue = new DeliveryQueueRepository(dataSource),
  ): DeliveryWorkerService {
    const own = Object.assign(new WebhooksConfig(), config, overrides);
    const secrets = new EndpointSecrets(own);
    // Only auto-disabling reads the flags, and a delivery that succeeds never gets there.
    const health = new EndpointHealthService(dataSource, {} as AgentFlagService, own);
    const worker = new DeliveryWorkerService(queue, new DeliverySender(own), secrets, health, own);
    workers.push(worker);
    return worker;
  }

  /** A new endpoint at `path` of the receiver, and a delivery to it not yet queued. */
  async function newDelivery(path: string) {
    const partnerId = randomUUID();
    const endpointId = randomUUID();
    const url = `${baseUrl}/${path}`;
    const sealed = new EndpointSecrets(config).seal(endpointId, 'secret', 'whsec_test');
    await dataSource.query(
      `INSERT INTO webhooks.endpoints (id, partner_id, label, url, secret_sealed) VALUES ($1, $2, $3, $4, $5)`,
      [endpointId, partnerId, path, url, sealed],
    );
    const endpoint = {
      url,
      enabled: true,
      secretSealed: sealed,
      previousSecretSealed: null,
      previousSecretExpiresAt: null,
    };
    const body = '{"event":"call.status.updated"}';
    return {
      partnerId,
      endpointId,
      eventId: randomUUID(),
      eventType: 'call.status.updated',
      agentId: null,
      body,
      endpoint,
    };
  }

  async function enqueue(path: string, claim?: InsertClaim): Promise<string> {
    const delivery = await newDelivery(path);
    const [{ id }] = await dataSource.transaction((em) =>
      new DeliveryQueueRepository(dataSource).enqueue(em, [delivery], claim),
    );
    return id;
  }

  const row = async (id: string) =>
    (
      (await dataSource.query(`SELECT status, attempts, locked_by FROM webhooks.deliveries WHERE id = $1`, [
        id,
      ])) as { status: string; attempts: number; locked_by: string | null }[]
    )[0];
  const receivedOf = (id: string) => received.filter((r) => r.id === id);
  const until = async (what: string, done: () => boolean | Promise<boolean>, timeoutMs = 10_000) => {
    for (const deadline = Date.now() + timeoutMs; !(await done()); await sleep(20)) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    }
  };

  it('an endpoint slower than the lease is sent once, with two replicas on the queue', async () => {
    const id = await enqueue('slow');
    const first = startWorker();
    await first.onApplicationBootstrap();
    // The second replica starts once the first holds the delivery, and polls for expired leases throughout.
    for (let i = 0; i < 100 && received.length === 0; i++) await sleep(50);
    await startWorker().onApplicationBootstrap();

    // Settled, it can be claimed no more: a second send would have started when a lease ran out before that
    // (after LEASE_MS), and a claim just before it would reach the receiver within moments.
    await until(
      'the delivery to be settled',
      async () => (await row(id)).status === 'succeeded',
      3 * SLOW_MS,
    );
    await sleep(500);
    expect(received.map((r) => r.id)).toEqual([id]);
    const [settled] = await dataSource.query(
      `SELECT status, attempts FROM webhooks.deliveries WHERE id = $1`,
      [id],
    );
    expect(settled).toEqual({ status: 'succeeded', attempts: 1 });
    const attempts = await dataSource.query(
      `SELECT outcome FROM webhooks.delivery_attempts WHERE delivery_id = $1`,
      [id],
    );
    expect(attempts).toEqual([{ outcome: 'succeeded' }]);
  }, 30_000);

  it('a replica whose claim was taken stops renewing it and records nothing', async () => {
    const id = await enqueue('taken');
    for (let i = 0; i < 100 && !received.some((r) => r.id === id); i++) await sleep(50);
    // Another claim takes the delivery over while the send is in flight.
    await dataSource.query(
      `UPDATE webhooks.deliveries SET locked_by = 'other-replica', locked_until = now() + interval '1 minute'
       WHERE id = $1`,
      [id],
    );
    // Its next renewal finds the claim gone and cuts the send short (a replica that did not would have the
    // receiver answer after SLOW_MS); a whole lease after that, nothing of it has been renewed or recorded.
    await until('the send to end', () => closed.some((c) => c.id === id), 2 * SLOW_MS);
    expect(closed.filter((c) => c.id === id)).toEqual([{ id, answered: false }]);
    await sleep(LEASE_MS);
    const [row] = await dataSource.query(
      `SELECT status, locked_by, locked_until > now() + interval '50 seconds' AS untouched
         FROM webhooks.deliveries WHERE id = $1`,
      [id],
    );
    expect(row).toEqual({ status: 'delivering', locked_by: 'other-replica', untouched: true });
    const attempts = await dataSource.query(
      `SELECT 1 FROM webhooks.delivery_attempts WHERE delivery_id = $1`,
      [id],
    );
    expect(attempts).toEqual([]);
  }, 30_000);

  describe('deliveries queued by a replica go to its own free slots at commit', () => {
    it('are written claimed and sent once the transaction commits, with no claim query', async () => {
      const queue = new DeliveryQueueRepository(dataSource);
      const claim = queue.claim.bind(queue);
      const claimedAt: number[] = [];
      const claims: Promise<unknown>[] = [];
      jest.spyOn(queue, 'claim').mockImplementation((...args) => {
        claimedAt.push(Date.now());
        const claiming = claim(...args);
        claims.push(claiming);
        return claiming;
      });
      // Polls too rarely to matter: only the claim at start and wake-ups would claim.
      const worker = startWorker({ WEBHOOK_POLL_MS: 600_000 }, queue);
      await worker.onApplicationBootstrap();
      // While the claim at start runs, every slot is its to fill, and a delivery queued then is written pending
      // (the commit's wake-up claims it). This test is about the free slots, so it waits for that claim.
      await Promise.allSettled(claims);
      await sleep(0);
      const delivery = await newDelivery('fast/handoff');
      let id = '';
      await dataSource.transaction(async (em) => {
        expect(await worker.enqueue(em, [delivery])).toBe(1);
        const [inside] = (await em.query(
          `SELECT id, status, attempts, locked_by FROM webhooks.deliveries WHERE event_id = $1`,
          [delivery.eventId],
        )) as { id: string; status: string; attempts: number; locked_by: string }[];
        id = inside.id;
        // Claimed by this replica for its first attempt, and not sent before the commit.
        expect(inside).toMatchObject({ status: 'delivering', attempts: 1 });
        await sleep(200);
        expect(receivedOf(id)).toEqual([]);
      });
      const committedAt = Date.now();
      await until('the delivery to be received', () => receivedOf(id).length === 1);
      const receivedAt = receivedOf(id)[0].at;
      expect(receivedAt - committedAt).toBeLessThan(2000);
      expect(claimedAt.filter((t) => t >= committedAt && t <= receivedAt)).toEqual([]);
      await until('the delivery to be settled', async () => (await row(id)).status === 'succeeded');
      expect(await row(id)).toEqual({ status: 'succeeded', attempts: 1, locked_by: null });
    }, 30_000);

    it('a transaction that rolls back queues nothing and gives its slots back', async () => {
      const worker = startWorker({ WEBHOOK_POLL_MS: 600_000, WEBHOOK_WORKER_CONCURRENCY: 1 });
      await worker.onApplicationBootstrap();
      const lost = await newDelivery('fast/rolled-back');
      await expect(
        dataSource.transaction(async (em) => {
          await worker.enqueue(em, [lost]);
          throw new Error('the fan-out failed');
        }),
      ).rejects.toThrow('the fan-out failed');
      const [{ n }] = (await dataSource.query(
        `SELECT count(*)::int AS n FROM webhooks.deliveries WHERE event_id = $1`,
        [lost.eventId],
      )) as { n: number }[];
      expect(n).toBe(0);
      // The one slot is free again, so the next delivery is sent: written claimed by this replica, or (when the
      // release's own wake-up is claiming at that moment) claimed by that wake-up. A slot kept by the rollback
      // would leave it unsent, as this worker polls too rarely to matter.
      const next = await newDelivery('fast/after-rollback');
      const id = await dataSource.transaction(async (em) => {
        await worker.enqueue(em, [next]);
        const [inside] = (await em.query(`SELECT id FROM webhooks.deliveries WHERE event_id = $1`, [
          next.eventId,
        ])) as { id: string }[];
        return inside.id;
      });
      await until('the next delivery to be received', () => receivedOf(id).length === 1);
    }, 30_000);

    it('what a replica wrote claimed and never sent (it died) is sent by another after the lease, once', async () => {
      const id = await enqueue('fast/orphan', { workerId: 'gone-replica', count: 1, leaseMs: LEASE_MS });
      expect(await row(id)).toMatchObject({ status: 'delivering', attempts: 1 });
      const written = Date.now();
      await startWorker().onApplicationBootstrap();
      await until('the orphan to be received', () => receivedOf(id).length === 1, 3 * LEASE_MS);
      expect(receivedOf(id)[0].at - written).toBeGreaterThanOrEqual(LEASE_MS - 100);
      await until('the orphan to be settled', async () => (await row(id)).status === 'succeeded');
      expect(await row(id)).toEqual({ status: 'succeeded', attempts: 2, locked_by: null });
      expect(receivedOf(id)).toHaveLength(1);
    }, 30_000);
  });
});
