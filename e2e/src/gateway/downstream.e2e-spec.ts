import { connect, NatsConnection } from 'nats';
import { createTestDatabase, freePort, ServiceHandle, startService, TestDatabase } from '@vap/testing';
import { api, e2eEnv } from '../../support';

/**
 * A gateway on a subject prefix where no service listens: what a partner sees when a service is down or
 * stuck. Expected: 502 INTERNAL_ERROR in bounded time, never a hang; the gateway itself stays live.
 * It gets a database of its own so its outbox relay never takes the shared platform's events.
 */
describe('downstream failures', () => {
  const RPC_TIMEOUT_MS = 1500;
  let gateway: ServiceHandle;
  let db: TestDatabase;
  let nc: NatsConnection;
  let key: string;
  let prefix: string;

  beforeAll(async () => {
    const env = e2eEnv();
    prefix = `${env.natsPrefix}_alone`;
    db = await createTestDatabase(env.databaseUrl, 'vap_e2e_alone');
    const port = await freePort();
    gateway = await startService('gateway', {
      port,
      readyPath: '/health/live',
      logFile: `${env.logDir}/gateway-alone.log`,
      env: {
        DATABASE_URL: db.url,
        NATS_URL: env.natsUrl,
        NATS_SUBJECT_PREFIX: prefix,
        ADMIN_API_TOKEN: env.adminToken,
        SECRETS_KEY: env.secretsKey,
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        RPC_TIMEOUT_MS: String(RPC_TIMEOUT_MS),
        PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      },
    });
    nc = await connect({ servers: env.natsUrl });
    const partner = await api('/admin/v1/partners', {
      key: env.adminToken,
      baseUrl: gateway.url,
      body: { name: 'Downstream Co' },
    });
    key = partner.body.data.api_key;
  }, 90_000);

  afterAll(async () => {
    await nc?.close();
    await gateway?.stop();
    await db?.drop();
  });

  it('answers 502 INTERNAL_ERROR at once when no service answers the command', async () => {
    const started = Date.now();
    const res = await api('/api/v2/agent', { key, baseUrl: gateway.url });
    expect(res.status).toBe(502);
    expect(res.body).toEqual({
      success: false,
      error: expect.objectContaining({ code: 'INTERNAL_ERROR', message: expect.stringMatching(/retry/i) }),
    });
    expect(Date.now() - started).toBeLessThan(RPC_TIMEOUT_MS);
  });

  it('answers 502 INTERNAL_ERROR within the timeout when the service takes the command and never replies', async () => {
    // A stuck replica: it joins the agents queue group and swallows every command.
    const sub = nc.subscribe(`${prefix}.agents.>`, { queue: 'agents' });
    try {
      await nc.flush();
      const started = Date.now();
      const res = await api('/api/v2/agent', { key, baseUrl: gateway.url });
      const elapsed = Date.now() - started;
      expect(res.status).toBe(502);
      expect(res.body.error.code).toBe('INTERNAL_ERROR');
      expect(elapsed).toBeGreaterThanOrEqual(RPC_TIMEOUT_MS - 100);
      expect(elapsed).toBeLessThan(RPC_TIMEOUT_MS + 2000);
    } finally {
      sub.unsubscribe();
    }
  });

  it('stays live but reports not ready, naming the services that do not answer', async () => {
    expect((await api('/health/live', { baseUrl: gateway.url })).status).toBe(200);
    const ready = await api('/health/ready', { baseUrl: gateway.url });
    expect(ready.status).toBe(503);
    expect(ready.body.error).toMatchObject({ agents: { status: 'down' }, calls: { status: 'down' } });
  });
});
