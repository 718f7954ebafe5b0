import { Client } from 'pg';
import { Platform, sleep, waitFor } from '@vap/testing';
import { api, createPartner, e2eEnv, OPERATOR_API, startRunGateways } from '../../support';

/**
 * Gateways answer for API keys they have seen lately without asking Postgres. A revocation or an account
 * change must still take effect at once where it was made, within a NATS hop on the other replicas, and
 * within API_KEY_CACHE_TTL_MS where no notice came at all.
 */
describe('cached API keys across gateway replicas', () => {
  const SHORT_TTL_MS = 1000;
  let long: Platform;
  let short: Platform;
  let db: Client;

  beforeAll(async () => {
    const env = {
      RATE_LIMIT_GENERAL_PER_MINUTE: '100000',
      RATE_LIMIT_ACCOUNT_GENERAL_PER_MINUTE: '100000',
      RATE_LIMIT_ADDRESS_ADMIN_PER_MINUTE: '100000',
      RATE_LIMIT_ADDRESS_INVALID_KEY_PER_MINUTE: '100000',
    };
    // A minute: within the test only a notice can make this replica drop a key.
    long = await startRunGateways(1, { ...env, API_KEY_CACHE_TTL_MS: '60000' });
    short = await startRunGateways(1, { ...env, API_KEY_CACHE_TTL_MS: String(SHORT_TTL_MS) });
    db = new Client({ connectionString: e2eEnv().databaseUrl });
    await db.connect();
  }, 120_000);

  afterAll(async () => {
    await db?.end();
    await long?.stop();
    await short?.stop();
  });

  const balance = (key: string, baseUrl: string) => api('/api/v2/billing/balance', { key, baseUrl });
  const statusOf = async (key: string, baseUrl: string) => (await balance(key, baseUrl)).status;

  it('drops a key revoked on another replica when the notice arrives, long before its TTL', async () => {
    const other = long.gateways[0].url;
    const { partner, apiKey } = await createPartner({ name: 'Cache Revoke Co' });
    const issued = await api(`${OPERATOR_API}/partners/${partner.id}/api-keys`, {
      method: 'POST',
      token: e2eEnv().adminToken,
      body: { name: 'revoke me' },
    });
    const second: string = issued.body.data.api_key;
    expect(await statusOf(second, other)).toBe(200);

    const revoked = await api(`${OPERATOR_API}/partners/${partner.id}/api-keys/${issued.body.data.key.id}`, {
      method: 'DELETE',
      token: e2eEnv().adminToken,
    });
    expect(revoked.status).toBe(200);
    // The replica that revoked it: at once.
    expect(await statusOf(second, e2eEnv().gatewayUrl)).toBe(401);
    const started = Date.now();
    await waitFor(async () => (await statusOf(second, other)) === 401, { timeoutMs: 5000, intervalMs: 20 });
    expect(Date.now() - started).toBeLessThan(5000);
    // The account's other key was dropped from the cache too, and still works.
    expect(await statusOf(apiKey, other)).toBe(200);
  });

  it("follows an operator's suspension and approval on every replica", async () => {
    const other = long.gateways[0].url;
    const { partner, apiKey } = await createPartner({ name: 'Cache Suspend Co' });
    expect(await statusOf(apiKey, other)).toBe(200);
    const patch = (body: object) =>
      api(`${OPERATOR_API}/partners/${partner.id}`, { method: 'PATCH', token: e2eEnv().adminToken, body });

    expect((await patch({ status: 'suspended' })).status).toBe(200);
    expect(await statusOf(apiKey, e2eEnv().gatewayUrl)).toBe(403);
    await waitFor(async () => (await statusOf(apiKey, other)) === 403, { timeoutMs: 5000, intervalMs: 20 });

    // The suspended account is cached as such; its approval must reach the other replica the same way.
    expect(await statusOf(apiKey, other)).toBe(403);
    expect((await patch({ status: 'approved' })).status).toBe(200);
    await waitFor(async () => (await statusOf(apiKey, other)) === 200, { timeoutMs: 5000, intervalMs: 20 });
  });

  it('drops a key within API_KEY_CACHE_TTL_MS even when no notice ever comes', async () => {
    const cached = short.gateways[0].url;
    const { apiKey } = await createPartner({ name: 'Cache Ttl Co' });
    expect(await statusOf(apiKey, cached)).toBe(200);
    // The replica cached the key before it answered: the entry is gone by then plus the TTL.
    const expiredBy = Date.now() + SHORT_TTL_MS;
    // Revoked behind the platform's back: no replica is told.
    const hidden = await db.query(
      `UPDATE gateway.api_keys SET revoked_at = now() WHERE lookup_prefix = $1 RETURNING id`,
      [apiKey.slice(0, 20)],
    );
    expect(hidden.rowCount).toBe(1);
    // Still answered from the cache (the read path never touches Postgres for a known key) ...
    expect(await statusOf(apiKey, cached)).toBe(200);
    // ... until the TTL runs out: a request sent after that reaches the replica later still, and is refused. (Timing
    // the refusal's answer would count the request's own latency, which a loaded machine stretches.)
    await sleep(expiredBy - Date.now());
    expect(await statusOf(apiKey, cached)).toBe(401);
    // A replica that never saw the key asks Postgres.
    expect(await statusOf(apiKey, long.gateways[0].url)).toBe(401);
  });
});
