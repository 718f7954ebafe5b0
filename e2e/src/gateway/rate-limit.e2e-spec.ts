import { Platform } from '@vap/testing';
import { Client } from 'pg';
import { adminApi, api, createPartner, e2eEnv, rawRequest, startRunGateways } from '../../support';

/**
 * Two gateway replicas with the contract's per-key limits and an account limit of 100 a minute, sharing the
 * run's database and NATS: the count of one key must be shared, so 60 requests spread over both use up the
 * minute, and an account's keys together get no more than the account's limit.
 */
describe('rate limits across two gateway replicas', () => {
  let platform: Platform;
  let a: string;
  let b: string;

  beforeAll(async () => {
    platform = await startRunGateways(2, {
      // The run's other specs share this database and the loopback address: only per-key limits here.
      RATE_LIMIT_ADDRESS_ADMIN_PER_MINUTE: '100000',
      RATE_LIMIT_ADDRESS_INVALID_KEY_PER_MINUTE: '100000',
      RATE_LIMIT_ACCOUNT_GENERAL_PER_MINUTE: '100',
    });
    [a, b] = platform.gateways.map((g) => g.url);
  }, 90_000);

  afterAll(async () => {
    await platform?.stop();
  });

  it('counts one key across both replicas and answers the 61st request with 429 RATE_LIMITED', async () => {
    const { apiKey } = await createPartner({ name: 'Rate Co' });
    const remaining: number[] = [];
    for (let i = 0; i < 60; i++) {
      const res = await api('/api/v2/billing/balance', { key: apiKey, baseUrl: i % 2 ? b : a });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBe('60');
      remaining.push(Number(res.headers.get('x-ratelimit-remaining')));
    }
    expect(remaining[0]).toBe(59);
    expect(remaining[59]).toBe(0);
    expect(remaining).toEqual([...remaining].sort((x, y) => y - x));

    for (const base of [a, b]) {
      const limited = await api('/api/v2/billing/balance', { key: apiKey, baseUrl: base });
      expect(limited.status).toBe(429);
      expect(limited.body).toEqual({
        success: false,
        error: expect.objectContaining({
          code: 'RATE_LIMITED',
          message: expect.stringMatching(/retry after 60 seconds/i),
        }),
      });
      const retryAfter = Number(limited.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(Number(limited.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    }
  });

  it('keeps separate counts per key, even of one partner', async () => {
    const { apiKey, partner } = await createPartner({ name: 'Two Keys Co' });
    for (let i = 0; i < 61; i++)
      await api('/api/v2/billing/balance', { key: apiKey, baseUrl: i % 2 ? b : a });
    expect((await api('/api/v2/billing/balance', { key: apiKey, baseUrl: a })).status).toBe(429);
    const second = await api(`/admin/v1/partners/${partner.id}/api-keys`, {
      method: 'POST',
      key: process.env.E2E_ADMIN_TOKEN,
      body: {},
      baseUrl: a,
    });
    expect((await api('/api/v2/billing/balance', { key: second.body.data.api_key, baseUrl: b })).status).toBe(
      200,
    );
  });

  it('counts concurrent requests exactly', async () => {
    const { apiKey } = await createPartner({ name: 'Burst Co' });
    for (let i = 0; i < 50; i++) {
      expect((await api('/api/v2/billing/balance', { key: apiKey, baseUrl: i % 2 ? b : a })).status).toBe(
        200,
      );
    }
    // The last 10 of the minute's 60 and 10 more, all at once across both replicas.
    const burst = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api('/api/v2/billing/balance', { key: apiKey, baseUrl: i % 2 ? b : a }),
      ),
    );
    const statuses = burst.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array(10).fill(200), ...Array(10).fill(429)]);
  });

  it("counts an account's keys together: a second key gets only what is left of the account's limit", async () => {
    const { apiKey, partner } = await createPartner({ name: 'Many Keys Co' });
    for (let i = 0; i < 60; i++)
      expect((await api('/api/v2/billing/balance', { key: apiKey, baseUrl: i % 2 ? b : a })).status).toBe(
        200,
      );
    const second = await api(`/admin/v1/partners/${partner.id}/api-keys`, {
      method: 'POST',
      key: process.env.E2E_ADMIN_TOKEN,
      body: {},
    });
    const key2 = second.body.data.api_key as string;
    const statuses: number[] = [];
    for (let i = 0; i < 41; i++)
      statuses.push((await api('/api/v2/billing/balance', { key: key2, baseUrl: i % 2 ? b : a })).status);
    expect(statuses).toEqual([...Array(40).fill(200), 429]);
    const limited = await api('/api/v2/billing/balance', { key: key2, baseUrl: a });
    expect(limited.status).toBe(429);
    expect(limited.body.error).toMatchObject({
      code: 'RATE_LIMITED',
      message: expect.stringMatching(/100 requests per minute for this account.*retry after 60 seconds/i),
    });
    expect(limited.headers.get('x-ratelimit-limit')).toBe('100');
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('refuses an over-limit request before reading its body: the 429 comes without the rest of the body', async () => {
    const { apiKey } = await createPartner({ name: 'Flood Co' });
    for (let i = 0; i < 60; i++) await api('/api/v2/billing/balance', { key: apiKey, baseUrl: a });
    // A 1 MB body is declared, a few bytes are sent: the answer must not wait for the rest.
    const answer = await rawRequest(a, {
      method: 'POST',
      path: '/api/v2/agent',
      headers: {
        host: new URL(a).host,
        authorization: `Bearer ${apiKey}`,
        'content-type': 'application/json',
        'content-length': String(1_000_000),
      },
      body: '{"agent_name":"',
      timeoutMs: 5000,
    });
    expect(answer.status).toBe(429);
    expect(JSON.parse(answer.body)).toMatchObject({ success: false, error: { code: 'RATE_LIMITED' } });
    expect(answer.headers['retry-after']).toBeDefined();
    // Nor is the rest read afterwards: the connection closes after the answer.
    expect(answer.headers.connection).toBe('close');
    expect(answer.closed).toBe(true);
    // Without a valid key, the same: 401 at once.
    const unauthenticated = await rawRequest(b, {
      method: 'POST',
      path: '/api/v2/agent',
      headers: {
        host: new URL(b).host,
        authorization: 'Bearer rg_live_not-a-key',
        'content-type': 'application/json',
        'content-length': String(1_000_000),
      },
      body: '{"agent_name":"',
    });
    expect(unauthenticated.status).toBe(401);
    expect(JSON.parse(unauthenticated.body)).toMatchObject({
      success: false,
      error: { code: 'UNAUTHORIZED' },
    });
  });

  it('refuses a key already over its limit from memory: Postgres counts none of its further requests', async () => {
    const { apiKey, partner } = await createPartner({ name: 'Flood Memo Co' });
    for (let i = 0; i < 61; i++) await api('/api/v2/billing/balance', { key: apiKey, baseUrl: a });
    const keyId = (await adminApi(`/partners/${partner.id}/api-keys`)).body.data.api_keys[0].id as string;
    const db = new Client({ connectionString: e2eEnv().databaseUrl });
    await db.connect();
    try {
      const counted = async () =>
        Number(
          (
            await db.query<{ request_count: number }>(
              `SELECT request_count FROM gateway.rate_limit_windows WHERE api_key_id = $1 AND bucket = 'general'`,
              [keyId],
            )
          ).rows[0].request_count,
        );
      expect(await counted()).toBe(61);
      for (let i = 0; i < 5; i++) {
        const refused = await api('/api/v2/billing/balance', { key: apiKey, baseUrl: a });
        expect(refused.status).toBe(429);
        expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      }
      expect(await counted()).toBe(61);
    } finally {
      await db.end();
    }
  });
});
