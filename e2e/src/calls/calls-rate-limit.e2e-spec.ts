import { Platform } from '@vap/testing';
import { api, startRunGateways } from '../../support';
import { CallsPartner } from './call-fixtures';

/** A gateway of its own with the contract's limits (the shared e2e platform lifts them). */
describe('the /calls rate limit', () => {
  let platform: Platform;

  beforeAll(async () => {
    platform = await startRunGateways(1);
  }, 90_000);

  afterAll(async () => {
    await platform?.stop();
  });

  it('allows 10 requests a minute per key under /calls, then 429 RATE_LIMITED; other routes keep working', async () => {
    const partner = await CallsPartner.create();
    const key = partner.generalKey;
    const base = platform.gatewayUrl;
    for (let i = 0; i < 10; i++) {
      const res = await api('/calls?limit=1', { key, baseUrl: base });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBe('10');
    }
    const limited = await api('/calls/start', { method: 'POST', key, baseUrl: base, body: {} });
    expect(limited.status).toBe(429);
    expect(limited.body.error).toMatchObject({
      code: 'RATE_LIMITED',
      message: expect.stringMatching(/retry after 60 seconds/i),
    });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await api('/billing/balance', { key, baseUrl: base })).status).toBe(200);
  });

  it('counts every spelling the router accepts for /calls (letter case, trailing slash) against the /calls limit', async () => {
    const partner = await CallsPartner.create();
    const key = partner.generalKey;
    const raw = (path: string) =>
      fetch(`${platform.gatewayUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });
    const routed = [
      '/API/V2/CALLS?limit=1',
      '/api/v2/Calls/?limit=1',
      '/Api/V2/calls?limit=1',
      '/api/v2/calls/?limit=1',
      `/API/V2/CALLS/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`,
      `/api/v2/calls/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}/`,
      '/API/v2/calls?limit=1',
      '/api/V2/CALLS/?limit=1',
      '/api/v2/cALLs?limit=1',
      '/API/V2/Calls?limit=1',
    ];
    for (const path of routed) {
      const res = await raw(path);
      // The list answers 200, an unknown call 404; either way the request was routed and counted on /calls.
      expect({
        path,
        routed: [200, 400, 404].includes(res.status),
        limit: res.headers.get('x-ratelimit-limit'),
      }).toEqual({ path, routed: true, limit: '10' });
    }
    const limited = await raw('/API/V2/CALLS');
    expect(limited.status).toBe(429);
    expect(((await limited.json()) as { error: { code: string } }).error.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Spellings the router does not accept are no /calls route at all: 404, counted nowhere.
    for (const path of ['/api/v2/%63alls', '/api/v2//calls']) expect((await raw(path)).status).toBe(404);
    expect((await api('/billing/balance', { key, baseUrl: platform.gatewayUrl })).status).toBe(200);
  });
});
