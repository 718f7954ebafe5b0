import { randomUUID } from 'node:crypto';
import { createTestDatabase, freePort, ServiceHandle, startService, TestDatabase } from '@vap/testing';
import { api, ApiResponse, e2eEnv } from '../../support';

/**
 * Per-client-address limits of the surfaces without an API key, on two gateway replicas of their own
 * (own database, so the run's other specs, all on loopback, never share these counts; a subject prefix
 * where no service listens, so callbacks answer 502 within their limit). Replica A believes no proxy;
 * replica B believes one (TRUST_PROXY_HOPS=1), so tests give each client its own X-Forwarded-For there.
 */
describe('per-address limits of the unauthenticated surfaces', () => {
  const LIMITS = {
    RATE_LIMIT_ADDRESS_ADMIN_PER_MINUTE: 10,
    RATE_LIMIT_ADDRESS_CALLBACKS_PER_MINUTE: 5,
    RATE_LIMIT_ADDRESS_UPLOADS_PER_MINUTE: 5,
    RATE_LIMIT_ADDRESS_INVALID_KEY_PER_MINUTE: 5,
    RATE_LIMIT_ADDRESS_CONSOLE_PER_MINUTE: 5,
    ADMIN_LOCKOUT_AFTER_FAILURES: 3,
    ADMIN_LOCKOUT_SECONDS: 2,
  };
  let db: TestDatabase;
  let a: ServiceHandle;
  let b: ServiceHandle;
  let adminToken: string;
  let apiKey: string;

  beforeAll(async () => {
    const env = e2eEnv();
    adminToken = env.adminToken;
    db = await createTestDatabase(env.databaseUrl, 'vap_e2e_addr');
    const start = async (label: string, hops: number) => {
      const port = await freePort();
      return startService('gateway', {
        port,
        label,
        readyPath: '/health/live',
        logFile: env.logDir ? `${env.logDir}/${label}.log` : undefined,
        env: {
          DATABASE_URL: db.url,
          NATS_URL: env.natsUrl,
          NATS_SUBJECT_PREFIX: `${env.natsPrefix}_addr`,
          ADMIN_API_TOKEN: env.adminToken,
          SECRETS_KEY: env.secretsKey,
          NODE_ENV: 'test',
          LOG_LEVEL: 'warn',
          TRUST_PROXY_HOPS: String(hops),
          PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
          ...Object.fromEntries(Object.entries(LIMITS).map(([k, v]) => [k, String(v)])),
        },
      });
    };
    a = await start('gateway-addr-a', 0);
    b = await start('gateway-addr-b', 1);
    const created = await api('/admin/v1/partners', {
      token: adminToken,
      baseUrl: a.url,
      body: { name: 'Address Co' },
    });
    expect(created.status).toBe(200);
    apiKey = created.body.data.api_key;
  }, 90_000);

  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await db?.drop();
  });

  const from = (address: string) => ({ 'X-Forwarded-For': address });

  function expectLimited(res: ApiResponse, maxRetryAfter = 60): void {
    expect(res.status).toBe(429);
    expect(res.body).toEqual({
      success: false,
      error: expect.objectContaining({
        code: 'RATE_LIMITED',
        message: expect.stringMatching(/retry after/i),
      }),
    });
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(maxRetryAfter);
  }

  /** A form post to the carriers' callback routes (outside /api/v2, so not through api()'s prefixing). */
  async function callback(baseUrl: string, headers: Record<string, string> = {}, inbound = false) {
    const path = inbound
      ? `/callbacks/inbound/carrier_b/${randomUUID()}/voice`
      : `/callbacks/carrier_b/${randomUUID()}/status`;
    const res = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: 'CallStatus=ringing',
    });
    const text = await res.text();
    const isJson = (res.headers.get('content-type') ?? '').includes('json');
    return {
      status: res.status,
      headers: res.headers,
      body: isJson ? JSON.parse(text) : text,
    } as ApiResponse;
  }

  it('limits carrier callbacks per socket address across replicas, believing X-Forwarded-For only from trusted proxies', async () => {
    // Replica A ignores the X-Forwarded-For its callers make up; B, without one, sees the same peer.
    const within = [
      await callback(a.url, from('198.51.100.1')),
      await callback(b.url),
      await callback(a.url, from('198.51.100.2')),
      await callback(b.url),
      await callback(a.url, from('198.51.100.3'), true),
    ];
    // No calls service listens on this prefix: within the limit a callback is 502, never 429.
    expect(within.map((r) => r.status)).toEqual([502, 502, 502, 502, 502]);
    expectLimited(await callback(a.url, from('198.51.100.4')));
    expectLimited(await callback(b.url));
    // Behind B's trusted proxy, another client is another address.
    expect((await callback(b.url, from('198.51.100.5'))).status).toBe(502);
  });

  it('limits signed upload and download URLs per address', async () => {
    const upload = (address: string, method = 'GET') =>
      api('/api/v2/uploads/not-a-signed-token', {
        method,
        baseUrl: b.url,
        headers: from(address),
        body: method === 'PUT' ? 'hello' : undefined,
      });
    for (let i = 0; i < 5; i++) expect((await upload('203.0.113.10')).status).toBe(403);
    expectLimited(await upload('203.0.113.10'));
    expectLimited(await upload('203.0.113.10', 'PUT'));
    expect((await upload('203.0.113.11')).status).toBe(403);
  });

  it('limits console sign-in and one-time links per address, an IPv6 client as its /64', async () => {
    // The console's own routes, outside the partner API's prefix.
    const consoleApi = async (path: string, address: string, body?: unknown): Promise<ApiResponse> => {
      const res = await fetch(`${b.url}/console/api${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { ...from(address), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, headers: res.headers, body: await res.json() };
    };
    const link = (address: string) => consoleApi('/invitations/cinv_not-a-real-link', address);
    for (let i = 0; i < 5; i++) expect((await link('2001:db8:5:6::1')).status).toBe(404);
    // Another address of the same /64 shares the count: one network cannot take a fresh address per request.
    expectLimited(await link('2001:db8:5:6::abcd'));
    expectLimited(
      await consoleApi('/session', '2001:db8:5:6::2', {
        email: 'someone@example.com',
        password: 'not-the-password',
      }),
    );
    expect((await link('2001:db8:5:7::1')).status).toBe(404);
  });

  it('limits requests with a missing or invalid API key per address; a valid key is never limited by address', async () => {
    const address = '203.0.113.20';
    const attempts: Record<string, string>[] = [
      {},
      { authorization: 'Basic abc' },
      { authorization: `Bearer rg_live_${'x'.repeat(40)}` },
      { authorization: 'Bearer nope' },
      { authorization: `Bearer rg_live_${'y'.repeat(40)}` },
    ];
    for (const headers of attempts) {
      const res = await api('/api/v2/billing/balance', {
        baseUrl: b.url,
        headers: { ...from(address), ...headers },
      });
      expect(res.status).toBe(401);
    }
    expectLimited(
      await api('/api/v2/billing/balance', {
        baseUrl: b.url,
        headers: { ...from(address), authorization: `Bearer rg_live_${'z'.repeat(40)}` },
      }),
    );
    const valid = await api('/api/v2/billing/balance', {
      key: apiKey,
      baseUrl: b.url,
      headers: from(address),
    });
    expect(valid.status).toBe(200);
    const other = await api('/api/v2/billing/balance', { baseUrl: b.url, headers: from('203.0.113.21') });
    expect(other.status).toBe(401);
  });

  it('limits the operator API per address, even with the right token', async () => {
    for (let i = 0; i < 10; i++) {
      const res = await api('/admin/v1/partners', {
        token: adminToken,
        baseUrl: b.url,
        headers: from('203.0.113.30'),
      });
      expect(res.status).toBe(200);
    }
    expectLimited(
      await api('/admin/v1/partners', { token: adminToken, baseUrl: b.url, headers: from('203.0.113.30') }),
    );
  });

  it('locks an address out of the operator API after repeated wrong tokens, for longer each time', async () => {
    const address = '203.0.113.40';
    const admin = (token: string, client = address) =>
      api('/admin/v1/partners', { token, baseUrl: b.url, headers: from(client) });
    for (let i = 0; i < 3; i++) expect((await admin('wrong-operator-token')).status).toBe(401);
    // Locked out: even the right token is not looked at.
    const locked = await admin(adminToken);
    expectLimited(locked, 2);
    const first = Number(locked.headers.get('retry-after'));
    // Per address: the operator elsewhere is not locked out.
    expect((await admin(adminToken, '203.0.113.41')).status).toBe(200);

    await new Promise((r) => setTimeout(r, first * 1000 + 200));
    expect((await admin('wrong-operator-token')).status).toBe(401);
    const again = await admin(adminToken);
    expectLimited(again, 4);
    const second = Number(again.headers.get('retry-after'));
    expect(second).toBeGreaterThan(first);

    await new Promise((r) => setTimeout(r, second * 1000 + 200));
    expect((await admin(adminToken)).status).toBe(200);
    // A right token clears the record: one more mistake is a plain 401 again.
    expect((await admin('wrong-operator-token')).status).toBe(401);
    expect((await admin(adminToken)).status).toBe(200);
  });
});
