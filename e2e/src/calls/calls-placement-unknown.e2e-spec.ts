// A carrier_a placement whose outcome the platform could not learn: the fake carrier takes the place-call request
// (the call exists at the carrier at once) but answers after the calls service stopped waiting
// (CARRIER_HTTP_TIMEOUT_MS). The call is then never failed while the carrier may carry it: it stays pending until
// its own callbacks name it, and a call the platform gave up on (carrier_a lists no calls: ended after
// PLACEMENT_LOOKUP_MAX_SECS) that the carrier then reports live is hung up at the carrier. The same for carrier_b,
// which lists its calls, and a server error or a refusal of the placement are the calls service's
// placement-unknown integration spec.
import { waitFor } from '@vap/testing';
import { adminApi, api, ApiResponse, OwnPlatform, startOwnPlatform } from '../../support';
import { CarrierAccount, FakeCarriers, startFakeCarriers } from '../../support/fake-carriers';
import { createTestAgent } from '../telephony/telephony-fixtures';

const A: CarrierAccount = {
  provider: 'carrier_a',
  id: 'MAFAKEUNKNOWNPLACE01',
  token: 'fake-carrier-a-token-unknown',
};
const A_FROM = '+919812390001';
/** The calls service waits this long for the carrier's answer to a place-call request. */
const DIAL_TIMEOUT_MS = 1000;
/** The fake carrier answers place-call requests this late: the call is placed, its id never heard. */
const LATE_ANSWER_MS = 3000;
const LOOKUP_MAX_SECS = 10;

interface CallView {
  call_id: string;
  status: string;
  end_call_reason?: string | null;
  duration_seconds?: number | null;
}

describe('a placement the carrier answers too late or with a server error', () => {
  let fake: FakeCarriers;
  let own: OwnPlatform;
  let gateway: string;
  let key: string;
  let agentId: string;
  let n = 0;

  beforeAll(async () => {
    fake = await startFakeCarriers();
    fake.addAccount(A);
    own = await startOwnPlatform({
      name: 'placement_unknown',
      services: ['agents', 'calls'],
      readyPath: '/health/live',
      env: {
        CARRIER_A_BASE_URL: fake.url,
        CARRIER_HTTP_TIMEOUT_MS: String(DIAL_TIMEOUT_MS),
        PLACEMENT_RECOVERY_MS: '300',
        PLACEMENT_GRACE_SECS: '5',
        PLACEMENT_LOOKUP_MAX_SECS: String(LOOKUP_MAX_SECS),
        CARRIER_CHECK_RETRY_SECS: '1',
      },
    });
    gateway = own.platform.gatewayUrl;
    const created = await adminApi('/partners', {
      baseUrl: gateway,
      body: { name: 'Unknown Placement Co', balance_inr: 1000, concurrency_limit: 10 },
    });
    expect(created.status).toBe(200);
    key = created.body.data.api_key as string;
    agentId = (await createTestAgent(key, {}, gateway)).id;
    const put = await api('/config/telephony/carrier_a', {
      method: 'PUT',
      key,
      baseUrl: gateway,
      body: { auth_id: A.id, auth_token: A.token, from_number: A_FROM },
    });
    expect(put.status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await own?.stop().catch(() => undefined);
    await fake?.close();
  });

  afterEach(() => fake.delayPlaceCalls(0));

  const nextCallee = (prefix: string) => `${prefix}${String(1000 + n++).padStart(4, '0')}`;
  const start = (from: string, to: string): Promise<ApiResponse> =>
    api('/calls/start', {
      key,
      baseUrl: gateway,
      body: { agent_id: agentId, to_number: to, from_number: from },
    });
  const getCall = async (id: string): Promise<CallView> =>
    (await api(`/calls/${id}`, { key, baseUrl: gateway })).body.data as CallView;
  const untilStatus = (id: string, statuses: string[], timeoutMs = 30_000) =>
    waitFor(
      async () => {
        const call = await getCall(id);
        return statuses.includes(call.status) ? call : undefined;
      },
      { timeoutMs, intervalMs: 200, description: `call ${id} to be ${statuses.join(' or ')}` },
    );

  it('hangs up at the carrier a carrier_a call it gave up on, once the carrier reports it live', async () => {
    fake.delayPlaceCalls(LATE_ANSWER_MS);
    const to = nextCallee('+91981239');
    const res = await start(A_FROM, to);
    expect(res.status).toBe(200);
    const id = res.body.data.call_id as string;
    const placed = await fake.waitForCall(to);
    // carrier_a cannot be asked for its calls: no callback came within the lookup window, so the call ends.
    const ended = await untilStatus(id, ['completed', 'failed'], (LOOKUP_MAX_SECS + 20) * 1000);
    expect(ended).toMatchObject({ status: 'failed', end_call_reason: 'placement_interrupted' });

    // The carrier did place it, and now rings the callee: the platform hangs the call up there.
    expect((await fake.callbackA(placed, 'ring', { CallStatus: 'ringing' })).status).toBe(200);
    expect(await fake.waitForHangup(placed.legId)).toMatchObject({ provider: 'carrier_a', id: placed.legId });
    // Asked for instructions, the answer hangs up too: no media stream for an ended call.
    const answer = await fake.callbackA(placed, 'answer', { CallStatus: 'in-progress' });
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('<Hangup/>');
    expect(answer.body).not.toContain('<Stream');
    expect(await getCall(id)).toMatchObject({ status: 'failed', end_call_reason: 'placement_interrupted' });
  }, 90_000);

  it('follows a carrier_a call placed after the dial timed out once its first callback names it', async () => {
    fake.delayPlaceCalls(LATE_ANSWER_MS);
    const to = nextCallee('+91981239');
    const res = await start(A_FROM, to);
    expect(res.status).toBe(200);
    const id = res.body.data.call_id as string;
    const placed = await fake.waitForCall(to);
    // Past the point where the recovery looks (grace and dial timeout), within the lookup window.
    await new Promise((r) => setTimeout(r, 7000));
    expect((await getCall(id)).status).toBe('pending');
    expect((await fake.callbackA(placed, 'ring', { CallStatus: 'ringing' })).status).toBe(200);
    expect((await getCall(id)).status).toBe('ringing');
    const hangup = {
      CallStatus: 'completed',
      Duration: '9',
      BillDuration: '9',
      HangupCauseName: 'NORMAL_CLEARING',
    };
    expect((await fake.callbackA(placed, 'hangup', hangup)).status).toBe(200);
    expect(await untilStatus(id, ['completed', 'failed'])).toMatchObject({
      status: 'completed',
      duration_seconds: 9,
    });
    expect(fake.hangups.filter((h) => h.id === placed.legId || h.id === placed.providerCallId)).toEqual([]);
  }, 60_000);
});
