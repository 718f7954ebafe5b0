// Agents replicas keep functions' rows in memory, so a call's tool call reaches the partner without a database
// read first. A change (new URL, new signing secret, deletion) made through one replica must reach every
// replica within a NATS hop, far inside the cache's 5 s bound.
import { waitFor } from '@vap/testing';
import { api, e2eEnv, OwnPlatform, startOwnPlatform } from '../../support';
import { FunctionServer, signatureValid, startFunctionServer } from './function-server';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

/** Well inside CUSTOM_FUNCTION_CACHE_TTL_MS (5 s): only the forget notice can make this. */
const NOTICE_WITHIN_MS = 2_000;
/** Tests in a row: with two replicas sharing a queue group, both answer some of them. */
const BURST = 16;

describe('custom functions cached on two agents replicas', () => {
  let own: OwnPlatform;
  let server: FunctionServer;
  let key: string;
  let baseUrl: string;

  beforeAll(async () => {
    server = await startFunctionServer();
    own = await startOwnPlatform({
      name: 'fn_cache',
      services: ['agents'],
      replicas: { agents: 2 },
      // The fake partner listens on 127.0.0.1.
      env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', NODE_EXTRA_CA_CERTS: process.env.E2E_TLS_CA ?? '' },
    });
    baseUrl = own.platform.gatewayUrl;
    const partner = await api('/admin/v1/partners', {
      token: e2eEnv().adminToken,
      baseUrl,
      body: { name: 'Cached Functions Co' },
    });
    key = partner.body.data.api_key;
  }, 120_000);

  afterAll(async () => {
    await own?.stop();
    await server?.close();
  });

  const call = (path: string, init: { method?: string; body?: unknown } = {}) =>
    api(path, { key, baseUrl, ...init });
  const testRun = async (id: string, n: number): Promise<Any[]> => {
    const results: Any[] = [];
    for (let i = 0; i < n; i++) {
      const res = await call(`/custom-functions/${id}/test`, {
        method: 'POST',
        body: { arguments: { n: i } },
      });
      expect(res.status).toBe(200);
      results.push(res.body.data);
    }
    return results;
  };
  const pathsSince = (from: number) =>
    server.requests.slice(from).map((r) => new URL(r.url, 'https://x').pathname);

  it('sends to the new URL and signs with the new secret on every replica once changed', async () => {
    const made = await call('/custom-functions', {
      method: 'POST',
      body: {
        name: `cached_lookup_${Date.now()}`,
        description: 'Looks something up',
        url: `${server.url}/before`,
      },
    });
    expect(made.status).toBe(200);
    const fn = made.body.data;
    // Both replicas read and keep the row.
    const from = server.requests.length;
    expect((await testRun(fn.id, BURST)).map((r) => r.outcome)).toEqual(Array(BURST).fill('success'));
    expect(new Set(pathsSince(from))).toEqual(new Set(['/before']));

    const patched = await call(`/custom-functions/${fn.id}`, {
      method: 'PATCH',
      body: { url: `${server.url}/after` },
    });
    expect(patched.status).toBe(200);
    const changedAt = Date.now();
    await waitFor(
      async () => {
        const start = server.requests.length;
        await testRun(fn.id, BURST);
        return pathsSince(start).every((p) => p === '/after') || null;
      },
      { timeoutMs: NOTICE_WITHIN_MS, intervalMs: 10 },
    );
    expect(Date.now() - changedAt).toBeLessThan(NOTICE_WITHIN_MS);

    const rotated = await call(`/custom-functions/${fn.id}/rotate-secret`, { method: 'POST' });
    expect(rotated.status).toBe(200);
    const secret = rotated.body.data.signing_secret;
    await waitFor(
      async () => {
        const start = server.requests.length;
        await testRun(fn.id, BURST);
        return server.requests.slice(start).every((r) => signatureValid(r, secret)) || null;
      },
      { timeoutMs: NOTICE_WITHIN_MS, intervalMs: 10 },
    );

    expect((await call(`/custom-functions/${fn.id}`, { method: 'DELETE' })).status).toBe(200);
    await waitFor(
      async () => {
        for (let i = 0; i < BURST; i++) {
          const res = await call(`/custom-functions/${fn.id}/test`, { method: 'POST', body: {} });
          if (res.status !== 404) return null;
        }
        return true;
      },
      { timeoutMs: NOTICE_WITHIN_MS, intervalMs: 10 },
    );
  }, 60_000);
});
