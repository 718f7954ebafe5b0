// /telephony-connections through the gateway, against a platform of its own whose carrier base URLs point at
// the local fake carriers (which serve the account reads a connection test makes: Twilio REST API 2010-04-01
// for carrier_b, Plivo API v1 for carrier_a).
import { waitFor } from '@vap/testing';
import { adminApi, api, CALL_SERVICES, OwnPlatform, startOwnPlatform } from '../../support';
import { launchBrowser, seriousA11yViolations } from '../../support/browser';
import { CarrierAccount, FakeCarriers, startFakeCarriers } from '../../support/fake-carriers';
import { signInNewOwner } from '../console/console-fixtures';
import { createTestAgent } from './telephony-fixtures';

const A: CarrierAccount = {
  provider: 'carrier_a',
  id: 'MATCNACCOUNT00000001',
  token: 'tcn-carrier-a-token-0001',
};
const B: CarrierAccount = {
  provider: 'carrier_b',
  id: 'ACtcn0000000000000000000000000000b1',
  token: 'tcn-carrier-b-token-0001',
};
const A_FROM = '+919812310001';
const B_FROM = '+14155570001';
const B_FROM_2 = '+14155570002';
const TCN = /^tcn_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface Connection {
  id: string;
  connection_id: string;
  provider: string;
  label: string | null;
  account_id_masked: string | null;
  from_number: string | null;
  inbound_webhook_url: string | null;
  inbound_sms_url: string | null;
  numbers: { id: string; number: string; is_from_number: boolean }[];
  numbers_total: number;
  health: {
    last_success: { at: string; operation: string } | null;
    last_failure: { at: string; operation: string; status: number | null; reason: string } | null;
    last_callback: { at: string } | null;
  };
}

describe('telephony connections', () => {
  let fake: FakeCarriers;
  let own: OwnPlatform;
  let gateway: string;
  let key: string;
  let otherKey: string;
  let agentId: string;

  const call = (path: string, options: { method?: string; body?: unknown; key?: string } = {}) =>
    api(path, { ...options, key: options.key ?? key, baseUrl: gateway });

  const partner = async (name: string) => {
    const created = await adminApi('/partners', {
      method: 'POST',
      baseUrl: gateway,
      body: { name, balance_inr: 1000, concurrency_limit: 10 },
    });
    expect(created.status).toBe(200);
    return created.body.data.api_key as string;
  };

  const list = async (): Promise<Connection[]> => {
    const res = await call('/telephony-connections');
    expect(res.status).toBe(200);
    return res.body.data.telephony_connections;
  };
  const byProvider = async (provider: string) => (await list()).find((c) => c.provider === provider)!;
  const test = (id: string, k = key) => call(`/telephony-connections/${id}/test`, { method: 'POST', key: k });
  const patch = (id: string, body: unknown, k = key) =>
    call(`/telephony-connections/${id}`, { method: 'PATCH', body, key: k });
  /** No place-call request reached the fake carrier. */
  const placements = () =>
    fake.requests.filter((r) => r.method === 'POST' && /\/(Calls\.json|Call\/)$/.test(r.path.split('?')[0]));

  beforeAll(async () => {
    fake = await startFakeCarriers();
    fake.addAccount(A);
    fake.addAccount(B);
    own = await startOwnPlatform({
      name: 'telephony-connections',
      services: [...CALL_SERVICES, 'sandbox-carrier'],
      env: {
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        NODE_EXTRA_CA_CERTS: process.env.E2E_TLS_CA,
        CARRIER_A_BASE_URL: fake.url,
        CARRIER_B_BASE_URL: fake.url,
        MEDIA_PUBLIC_URL: 'https://media.connections.test/voice',
      },
    });
    gateway = own.platform.gatewayUrl;
    // The platform's first partner: the console test below signs its owner in (signInNewOwner).
    key = await partner('Connections Co');
    otherKey = await partner('Connections Other Co');
    agentId = (await createTestAgent(key, {}, gateway)).id;
    // The sandbox line exists from the first look at the account's connections, before any carrier's.
    expect((await list()).map((c) => c.provider)).toEqual(['sandbox']);

    const putB = await call('/config/telephony/carrier_b', {
      method: 'PUT',
      body: { account_sid: B.id, auth_token: B.token, from_number: B_FROM },
    });
    expect(putB.status).toBe(200);
    const putA = await call('/config/telephony/carrier_a', {
      method: 'PUT',
      body: { auth_id: A.id, auth_token: A.token, from_number: A_FROM },
    });
    expect(putA.status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await own?.stop();
    await fake?.close();
  });

  it('lists the sandbox and both carriers the shortcut routes configured, credentials masked, with their numbers', async () => {
    const res = await call('/telephony-connections');
    expect(res.status).toBe(200);
    const text = JSON.stringify(res.body);
    for (const secret of [A.token, B.token, A.id, B.id]) expect(text).not.toContain(secret);
    const connections: Connection[] = res.body.data.telephony_connections;
    expect(connections.map((c) => c.provider)).toEqual(['sandbox', 'carrier_b', 'carrier_a']);
    for (const c of connections) expect(c.id).toMatch(TCN);

    const b = connections[1];
    expect(b).toMatchObject({
      account_id_masked: 'ACtc***************************00b1',
      from_number: B_FROM,
      numbers: [{ number: B_FROM, is_from_number: true }],
      numbers_total: 1,
      status: 'active',
    });
    expect(connections[2]).toMatchObject({
      account_id_masked: 'MATC************0001',
      from_number: A_FROM,
      numbers: [{ number: A_FROM, is_from_number: true }],
    });
    expect(connections[0]).toMatchObject({ account_id_masked: null, numbers_total: 1 });

    // The same connections as the shortcut's listing names them.
    const config = await call('/config/telephony');
    const ids = config.body.data.connections.map((c: { id: string }) => c.id).sort();
    expect(connections.map((c) => c.connection_id).sort()).toEqual(ids);
    expect(b.id).toBe(`tcn_${b.connection_id}`);

    const one = await call(`/telephony-connections/${b.id}`);
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ id: b.id, provider: 'carrier_b', from_number: B_FROM });

    // The URLs to set at the carrier, under the platform's callback base (here the gateway itself).
    for (const c of [b, connections[2]]) {
      expect(c).toMatchObject({
        inbound_webhook_url: `${gateway}/callbacks/inbound/${c.provider}/${c.connection_id}/voice`,
        inbound_sms_url: `${gateway}/callbacks/inbound/${c.provider}/${c.connection_id}/sms`,
      });
    }
    expect(one.body.data.inbound_sms_url).toBe(b.inbound_sms_url);
    expect(connections[0]).toMatchObject({ inbound_webhook_url: null, inbound_sms_url: null });
    // The SMS URL is the route a carrier's inbound SMS reaches: an unsigned one is refused there (403), not 404.
    const unsigned = await fetch(b.inbound_sms_url!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ From: '+14155550123', To: B_FROM, Body: 'hi', MessageSid: 'SMx1' }),
    });
    expect(unsigned.status).toBe(403);
  });

  it('tests each connection by reading the carrier account, placing no call', async () => {
    const b = await byProvider('carrier_b');
    const a = await byProvider('carrier_a');
    const sandbox = await byProvider('sandbox');

    const okB = await test(b.id);
    expect(okB.status).toBe(200);
    expect(okB.body.data).toMatchObject({
      id: b.id,
      provider: 'carrier_b',
      result: 'ok',
      reason: null,
      carrier_status: 200,
      latency_ms: expect.any(Number),
    });
    const okA = await test(a.id);
    expect(okA.body.data).toMatchObject({ result: 'ok', carrier_status: 200, provider: 'carrier_a' });
    expect(fake.accountFetches.map((acct) => acct.id)).toEqual(expect.arrayContaining([A.id, B.id]));
    expect(
      fake.requests.some((r) => r.method === 'GET' && r.path === `/2010-04-01/Accounts/${B.id}.json`),
    ).toBe(true);
    expect(fake.requests.some((r) => r.method === 'GET' && r.path === `/v1/Account/${A.id}/`)).toBe(true);

    const okSandbox = await test(sandbox.id);
    expect(okSandbox.body.data).toMatchObject({ result: 'ok', reason: null, carrier_status: null });
    expect(placements()).toEqual([]);
    expect(fake.calls).toEqual([]);

    // The read counts as the connection's last successful REST call.
    const healthy = await waitFor(async () => (await byProvider('carrier_b')).health.last_success, {
      timeoutMs: 20_000,
      intervalMs: 500,
      description: 'carrier_b health showing the account read',
    });
    expect(healthy.operation).toBe('GET account');
  });

  it('rotates the auth token with PATCH; a rejected token fails the test with the reason and places nothing', async () => {
    const b = await byProvider('carrier_b');
    const rotated = await patch(b.id, { auth_token: 'not-the-account-token' });
    expect(rotated.status).toBe(200);
    expect(JSON.stringify(rotated.body)).not.toContain('not-the-account-token');
    expect(rotated.body.data).toMatchObject({ id: b.id, account_id_masked: b.account_id_masked });

    const failed = await test(b.id);
    expect(failed.status).toBe(200);
    expect(failed.body.data).toMatchObject({
      result: 'failed',
      reason: 'credentials_rejected',
      carrier_status: 401,
      message: expect.stringContaining('rejected the credentials'),
    });
    expect(placements()).toEqual([]);
    expect(fake.calls).toEqual([]);
    const failure = await waitFor(async () => (await byProvider('carrier_b')).health.last_failure, {
      timeoutMs: 20_000,
      intervalMs: 500,
      description: 'carrier_b health showing the rejected read',
    });
    expect(failure).toMatchObject({ operation: 'GET account', status: 401, reason: 'credentials_rejected' });

    const restored = await patch(b.id, { auth_token: B.token, label: 'Main carrier_b' });
    expect(restored.status).toBe(200);
    expect(restored.body.data.label).toBe('Main carrier_b');
    expect((await test(b.id)).body.data).toMatchObject({ result: 'ok', carrier_status: 200 });
  });

  it('shows the last REST call and the last callback after a call, and refuses DELETE while the call is live', async () => {
    const b = await byProvider('carrier_b');
    const before = Date.now();
    const started = await call('/calls/start', {
      method: 'POST',
      body: { agent_id: agentId, to_number: '+14155579001', from_number: B_FROM },
    });
    expect(started.status).toBe(200);
    const placed = await fake.waitForCall('+14155579001');
    expect((await fake.callbackB(placed, { CallStatus: 'ringing' })).status).toBe(200);

    const live = await call(`/telephony-connections/${b.id}`, { method: 'DELETE' });
    expect(live.status).toBe(409);
    expect(live.body.error).toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('live call'),
    });

    // Health is written at most every few seconds per connection: the placement shows once its window ends.
    const health = await waitFor(
      async () => {
        const h = (await byProvider('carrier_b')).health;
        return h.last_success?.operation === 'POST /Calls.json' && h.last_callback ? h : null;
      },
      { timeoutMs: 30_000, intervalMs: 500, description: 'carrier_b health after a call' },
    );
    expect(Date.parse(health.last_callback!.at)).toBeGreaterThanOrEqual(before - 1000);

    expect((await fake.callbackB(placed, { CallStatus: 'busy' })).status).toBe(200);
    await waitFor(
      async () => (await call(`/calls/${started.body.data.call_id}`)).body.data.status === 'busy',
      { timeoutMs: 20_000, description: 'the call ended busy' },
    );
  });

  describe('PATCH', () => {
    it('changes the from-number to a new number of the connection; the old one stays a number', async () => {
      const b = await byProvider('carrier_b');
      const res = await patch(b.id, { from_number: B_FROM_2 });
      expect(res.status).toBe(200);
      expect(res.body.data.from_number).toBe(B_FROM_2);
      expect(res.body.data.numbers).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ number: B_FROM, is_from_number: false }),
          expect.objectContaining({ number: B_FROM_2, is_from_number: true }),
        ]),
      );
    });

    it('refuses a number of another connection with 409', async () => {
      const b = await byProvider('carrier_b');
      const res = await patch(b.id, { from_number: A_FROM });
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('CONFLICT');
    });

    it('refuses the sandbox connection with 409', async () => {
      const sandbox = await byProvider('sandbox');
      expect((await patch(sandbox.id, { label: 'x' })).status).toBe(409);
    });

    it.each([
      ['an empty body', {}],
      ['a from_number that is not E.164', { from_number: '4155570003' }],
      ['an empty auth_token', { auth_token: '' }],
      ['a label too long', { label: 'x'.repeat(101) }],
      ['an unknown field', { account_sid: 'AC1' }],
      ['a non-string auth_token', { auth_token: 42 }],
    ])('answers 400 VALIDATION_ERROR to %s', async (_label, body) => {
      const b = await byProvider('carrier_b');
      const res = await patch(b.id, body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    });
  });

  it('keeps another account’s connection out of reach (404) and a malformed id names nothing (404)', async () => {
    const b = await byProvider('carrier_b');
    expect((await call(`/telephony-connections/${b.id}`, { key: otherKey })).status).toBe(404);
    expect((await patch(b.id, { label: 'mine' }, otherKey)).status).toBe(404);
    expect((await test(b.id, otherKey)).status).toBe(404);
    expect((await call(`/telephony-connections/${b.id}`, { method: 'DELETE', key: otherKey })).status).toBe(
      404,
    );
    const others = (await call('/telephony-connections', { key: otherKey })).body.data.telephony_connections;
    expect(others.map((c: Connection) => c.provider)).toEqual(['sandbox']);

    for (const bad of [b.connection_id, 'tcn_nope', `pn_${b.connection_id}`]) {
      const res = await call(`/telephony-connections/${bad}`);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
  });

  describe('DELETE', () => {
    let deletedId: string;

    it('refuses the sandbox connection with 409', async () => {
      const sandbox = await byProvider('sandbox');
      const res = await call(`/telephony-connections/${sandbox.id}`, { method: 'DELETE' });
      expect(res.status).toBe(409);
    });

    it('refuses while numbers besides the from-number are on it, then deletes it with its from-number', async () => {
      const b = await byProvider('carrier_b');
      const blocked = await call(`/telephony-connections/${b.id}`, { method: 'DELETE' });
      expect(blocked.status).toBe(409);
      expect(blocked.body.error.message).toContain(B_FROM);

      const old = b.numbers.find((n) => n.number === B_FROM)!;
      expect((await call(`/phone-numbers/${old.id}`, { method: 'DELETE' })).status).toBe(200);

      const deleted = await call(`/telephony-connections/${b.id}`, { method: 'DELETE' });
      expect(deleted.status).toBe(200);
      deletedId = b.id;
      expect(deleted.body.data).toEqual({
        id: b.id,
        deleted: true,
        numbers_deleted: [B_FROM_2],
        message: expect.any(String),
      });
      expect((await call(`/telephony-connections/${b.id}`)).status).toBe(404);
      expect((await test(b.id)).status).toBe(404);
      expect((await list()).map((c) => c.provider)).toEqual(['sandbox', 'carrier_a']);
      const config = (await call('/config/telephony')).body.data.connections;
      expect(config.map((c: { provider: string }) => c.provider)).not.toContain('carrier_b');
      const numbers = (await call('/phone-numbers?provider=carrier_b')).body.data.phone_numbers;
      expect(numbers).toEqual([]);
    });

    it('brings the same connection back when the shortcut route configures the carrier again', async () => {
      const put = await call('/config/telephony/carrier_b', {
        method: 'PUT',
        body: { account_sid: B.id, auth_token: B.token, from_number: B_FROM },
      });
      expect(put.status).toBe(200);
      const b = await byProvider('carrier_b');
      expect(b).toMatchObject({ id: deletedId, from_number: B_FROM, numbers_total: 1, status: 'active' });
      expect((await test(b.id)).body.data.result).toBe('ok');
    });
  });

  // Last: the page shows the connections as the tests above left them.
  describe('console', () => {
    it('shows the connections with their health on the console’s Telephony page, and tests one there', async () => {
      // Health is written at most every few seconds: the page shows what is stored when it loads.
      await waitFor(async () => (await byProvider('carrier_b')).health.last_success, {
        timeoutMs: 20_000,
        intervalMs: 500,
        description: 'carrier_b health',
      });
      const launched = await launchBrowser();
      try {
        const page = await signInNewOwner(launched.browser, gateway);
        await page.goto(`${gateway}/console/telephony`);
        await page.getByRole('heading', { name: 'Telephony', exact: true }).waitFor();
        const row = page.getByRole('row').filter({ hasText: 'carrier_b' });
        await row.getByText(B_FROM).waitFor();
        await row.getByText('ACtc***************************00b1').waitFor();
        await row.getByText(/^Last REST call: .+\(/).waitFor();
        await row.getByRole('button', { name: 'Test the carrier_b connection' }).click();
        await row.getByText(/^OK: carrier_b accepted the credentials/).waitFor();
        expect(await seriousA11yViolations(page)).toEqual([]);
      } finally {
        await launched.close();
      }
    }, 120_000);
  });
});
