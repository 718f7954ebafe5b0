// Idempotency-Key end to end: a platform of its own whose carrier API answers place-call requests after
// the gateway has given up (RPC_TIMEOUT_MS below the carrier's delay), so the partner sees 502 while the
// calls service is still dialling. Whatever the gateway saw, a retry with the same key must learn the
// first call and the carrier must be dialled exactly once.
import { Platform } from '@vap/testing';
import { adminApi, api, ApiResponse, OwnPlatform, startOwnPlatform } from '../../support';
import { CarrierAccount, FakeCarriers, startFakeCarriers } from '../../support/fake-carriers';
import { createTestAgent } from '../telephony/telephony-fixtures';

const B: CarrierAccount = {
  provider: 'carrier_b',
  id: 'ACfake00000000000000000000000000c7',
  token: 'fake-carrier-b-token-idem',
};
const FROM = '+14155560077';
const RPC_TIMEOUT_MS = 1500;
/** Longer than the gateway waits for the calls service, shorter than the calls service waits for the carrier. */
const CARRIER_DELAY_MS = 4000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('Idempotency-Key when the gateway times out while the call is dialled', () => {
  let fake: FakeCarriers;
  let own: OwnPlatform;
  let platform: Platform;
  let key: string;
  let agentId: string;
  let n = 0;

  beforeAll(async () => {
    fake = await startFakeCarriers();
    fake.addAccount(B);
    own = await startOwnPlatform({
      name: 'idempotency',
      services: ['agents', 'calls'],
      readyPath: '/health/live',
      env: {
        RPC_TIMEOUT_MS: String(RPC_TIMEOUT_MS),
        CARRIER_B_BASE_URL: fake.url,
        CARRIER_HTTP_TIMEOUT_MS: '20000',
      },
    });
    platform = own.platform;
    const created = await adminApi('/partners', {
      baseUrl: platform.gatewayUrl,
      body: { name: 'Idempotent Co', balance_inr: 1000, concurrency_limit: 50 },
    });
    expect(created.status).toBe(200);
    key = created.body.data.api_key;
    agentId = (await createTestAgent(key, {}, platform.gatewayUrl)).id;
    const put = await api('/config/telephony/carrier_b', {
      method: 'PUT',
      key,
      baseUrl: platform.gatewayUrl,
      body: { account_sid: B.id, auth_token: B.token, from_number: FROM },
    });
    expect(put.status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await own?.stop();
    await fake?.close();
  });

  beforeEach(() => fake.delayPlaceCalls(CARRIER_DELAY_MS));
  afterEach(() => fake.delayPlaceCalls(0));

  /** A callee of its own per test, so dials can be counted per test. */
  const nextCallee = () => `+1415557${String(1000 + n++).padStart(4, '0')}`;
  const dialsTo = (to: string) => fake.calls.filter((c) => c.to === to).length;
  const start = (body: Record<string, unknown>, idempotencyKey: string): Promise<ApiResponse> =>
    api('/calls/start', {
      key,
      baseUrl: platform.gatewayUrl,
      body,
      headers: { 'Idempotency-Key': idempotencyKey },
    });
  /** The first attempt: the carrier is still answering when the gateway gives up. */
  async function timedOut(body: Record<string, unknown>, idempotencyKey: string): Promise<void> {
    const first = await start(body, idempotencyKey);
    expect(first.status).toBe(502);
    expect(first.body.error.code).toBe('INTERNAL_ERROR');
    await fake.waitForCall(String(body.to_number));
  }

  it('answers the retry after a 502 with the first call, dialled once', async () => {
    const to = nextCallee();
    const ref = `idem-timeout-${Date.now()}`;
    const body = { agent_id: agentId, to_number: to, from_number: FROM, client_reference_id: ref };
    const idem = `timeout-${Date.now()}`;
    await timedOut(body, idem);

    // Retried while the carrier is still answering the first dial, then again once it has answered.
    const during = await start(body, idem);
    expect(during.status).toBe(200);
    expect(during.headers.get('idempotency-replayed')).toBe('true');
    await sleep(CARRIER_DELAY_MS);
    const after = await start(body, idem);
    expect(after.status).toBe(200);
    expect(after.headers.get('idempotency-replayed')).toBe('true');
    expect(after.body.data.call_id).toBe(during.body.data.call_id);

    expect(dialsTo(to)).toBe(1);
    const listed = await api(`/calls?client_reference_id=${ref}`, { key, baseUrl: platform.gatewayUrl });
    expect(listed.body.data.calls).toHaveLength(1);
  });

  it('answers 409 CONFLICT to the same key with another body after a 502, and dials nothing more', async () => {
    const to = nextCallee();
    const idem = `timeout-other-${Date.now()}`;
    await timedOut({ agent_id: agentId, to_number: to, from_number: FROM }, idem);
    const other = nextCallee();
    const res = await start({ agent_id: agentId, to_number: other, from_number: FROM }, idem);
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({
      code: 'CONFLICT',
      message: expect.stringMatching(/Idempotency-Key/),
    });
    await sleep(500);
    expect(dialsTo(to)).toBe(1);
    expect(dialsTo(other)).toBe(0);
  });

  it('dials once when retries race after a 502', async () => {
    const to = nextCallee();
    const body = { agent_id: agentId, to_number: to, from_number: FROM };
    const idem = `timeout-race-${Date.now()}`;
    await timedOut(body, idem);
    const retries = await Promise.all(Array.from({ length: 5 }, () => start(body, idem)));
    expect(retries.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(retries.map((r) => r.body.data.call_id)).size).toBe(1);
    expect(dialsTo(to)).toBe(1);
  });

  it('dials once when first attempts with one key race', async () => {
    const to = nextCallee();
    const body = { agent_id: agentId, to_number: to, from_number: FROM };
    const idem = `race-${Date.now()}`;
    const results = await Promise.all(Array.from({ length: 5 }, () => start(body, idem)));
    // One of them placed the call (and timed out at the gateway); the others learnt that call.
    const answered = results.filter((r) => r.status === 200);
    expect(results.filter((r) => r.status === 502)).toHaveLength(1);
    expect(answered).toHaveLength(4);
    expect(new Set(answered.map((r) => r.body.data.call_id)).size).toBe(1);
    await sleep(CARRIER_DELAY_MS);
    expect(dialsTo(to)).toBe(1);
  });
});
