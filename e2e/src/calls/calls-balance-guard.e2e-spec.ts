// Calls that outrun the partner's balance: a platform of its own (own database and NATS subject prefix)
// whose carrier_b points at the local fake carrier, so the hang-up through the carrier's REST API shows.
import { waitFor } from '@vap/testing';
import { adminApi, api, OwnPlatform, startOwnPlatform } from '../../support';
import { CarrierAccount, FakeCarriers, startFakeCarriers } from '../../support/fake-carriers';
import { callee, FundedPartner, partnerWithListeningAgent } from './call-fixtures';

const A: CarrierAccount = {
  provider: 'carrier_a',
  id: 'MAFAKEACCOUNT0000077',
  token: 'fake-carrier-a-token-0077',
};
const A_FROM = '+919812300077';
const B: CarrierAccount = {
  provider: 'carrier_b',
  id: 'ACfake00000000000000000000000000c7',
  token: 'fake-carrier-b-token-0007',
};
const B_FROM = '+14155560077';
const TERMINAL = ['completed', 'failed', 'no_answer', 'busy', 'canceled'];
/** What the agent says when the platform ends a call (the voice service's Phrases.endFarewell). */
const FAREWELL = "I'm sorry, I have to end the call now. Goodbye.";

describe('calls end when the balance cannot cover them', () => {
  let fake: FakeCarriers;
  let own: OwnPlatform;
  let gateway: string;

  beforeAll(async () => {
    fake = await startFakeCarriers();
    fake.addAccount(A);
    fake.addAccount(B);
    own = await startOwnPlatform({
      name: 'balance-guard',
      env: { CARRIER_A_BASE_URL: fake.url, CARRIER_B_BASE_URL: fake.url, BALANCE_GUARD_INTERVAL_MS: '500' },
    });
    gateway = own.platform.gatewayUrl;
  }, 120_000);

  afterAll(async () => {
    await own?.stop();
    await fake?.close();
  });

  /** A partner funded for exactly one 30-second call (INR 2.00 at the default INR 4.00 a minute). */
  const smallPartner = () =>
    partnerWithListeningAgent(
      gateway,
      { name: 'Thin Wallet Co', balance_inr: 2, concurrency_limit: 3 },
      { agent_name: 'Long talks' },
    );

  /** Sets the partner's carrier account and starts a call on it; answers the call id and the placed call. */
  async function startOnCarrier(partner: FundedPartner, account: CarrierAccount, from: string, to: string) {
    const body =
      account.provider === 'carrier_a'
        ? { auth_id: account.id, auth_token: account.token, from_number: from }
        : { account_sid: account.id, auth_token: account.token, from_number: from };
    const put = await api(`/config/telephony/${account.provider}`, {
      method: 'PUT',
      key: partner.key,
      baseUrl: gateway,
      body,
    });
    expect(put.status).toBe(200);
    const started = await start(partner.key, { agent_id: partner.agentId, to_number: to, from_number: from });
    expect(started.status).toBe(200);
    return { id: started.body.data.call_id as string, placed: await fake.waitForCall(to) };
  }

  const getCall = async (key: string, id: string) =>
    (await api(`/calls/${id}`, { key, baseUrl: gateway })).body.data;
  const start = (key: string, body: Record<string, unknown>) =>
    api('/calls/start', { method: 'POST', key, baseUrl: gateway, body });
  const balanceOf = async (key: string) =>
    (await api('/billing/balance', { key, baseUrl: gateway })).body.data.balance_inr as number;

  it("ends a long sandbox call with the agent's farewell, then the hang-up, and refuses new calls meanwhile", async () => {
    const partner = await smallPartner();
    // 07: the callee talks until max_call_duration_secs (an hour); at INR 4.00 a minute INR 2.00 lasts 30 s.
    const started = await start(partner.key, { agent_id: partner.agentId, to_number: callee('07') });
    expect(started.status).toBe(200);
    const id = started.body.data.call_id;

    // Once the call has run past what the balance covers (intro and seven lines: well over 30 s of call
    // time), a second call is refused, whether the first is still being hung up or already over.
    let second: Awaited<ReturnType<typeof start>> | undefined;
    const ended = await waitFor(
      async () => {
        const call = await getCall(partner.key, id);
        if (!second && (call.session.transcript?.length ?? 0) >= 3)
          second = await start(partner.key, { agent_id: partner.agentId, to_number: callee('42') });
        return TERMINAL.includes(call.status) ? call : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 100, description: 'the call to be ended for its balance' },
    );
    second ??= await start(partner.key, { agent_id: partner.agentId, to_number: callee('42') });
    expect(second.status).toBe(403);
    expect(second.body.error).toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringMatching(/balance/i),
    });

    expect(ended).toMatchObject({
      status: 'completed',
      end_call_reason: 'insufficient_balance',
      hangup_source: 'system',
    });
    expect(ended.duration_seconds).toBeGreaterThanOrEqual(30);
    expect(ended.duration_seconds).toBeLessThan(3600);
    // The call's media runs through the voice service, so the agent says goodbye first; then the platform
    // hangs up through the carrier (the sandbox here, hangup_source system above), which ends the stream.
    const transcript = ended.session.transcript as { role: string; content: string }[];
    expect(transcript[0]).toMatchObject({ role: 'bot' });
    expect(transcript.some((t) => t.role === 'user')).toBe(true);
    expect(transcript.filter((t) => t.role === 'bot').at(-1)?.content).toBe(FAREWELL);

    // Charged once (the charge takes what is left), and nothing more can start.
    await waitFor(async () => ((await balanceOf(partner.key)) === 0 ? true : undefined), {
      timeoutMs: 20_000,
      description: 'the charge to reach the balance',
    });
    const third = await start(partner.key, { agent_id: partner.agentId, to_number: callee('42') });
    expect(third.status).toBe(403);
  }, 90_000);

  it('hangs up a carrier_b call through the carrier REST API, with the reason on the call', async () => {
    const partner = await smallPartner();
    const { id, placed } = await startOnCarrier(partner, B, B_FROM, '+14155569001');

    expect((await fake.callbackB(placed, { CallStatus: 'ringing', SequenceNumber: '1' })).status).toBe(200);
    // The carrier reports the answer 45 s after the fact: the call has already cost INR 3.00 of INR 2.00.
    const answered = await fake.callbackB(placed, {
      CallStatus: 'in-progress',
      AnsweredBy: 'human',
      SequenceNumber: '2',
      Timestamp: new Date(Date.now() - 45_000).toUTCString(),
    });
    expect(answered.status).toBe(200);

    const hangup = await fake.waitForHangup(placed.providerCallId, 15_000);
    expect(hangup).toEqual({ provider: 'carrier_b', id: placed.providerCallId, status: 'completed' });
    const request = fake.requests.find(
      (r) => r.path === `/2010-04-01/Accounts/${B.id}/Calls/${placed.providerCallId}.json`,
    )!;
    expect(request.authorization).toBe(`Basic ${Buffer.from(`${B.id}:${B.token}`).toString('base64')}`);
    expect((await getCall(partner.key, id)).status).toBe('in_progress');
    // Meanwhile the partner cannot start another call.
    const refused = await start(partner.key, { agent_id: partner.agentId, to_number: '+14155569002' });
    expect(refused.status).toBe(403);

    // The carrier hangs up and reports it, without a reason of its own.
    const done = await fake.callbackB(placed, {
      CallStatus: 'completed',
      CallDuration: '46',
      SequenceNumber: '3',
    });
    expect(done.status).toBe(200);
    expect(await getCall(partner.key, id)).toMatchObject({
      status: 'completed',
      duration_seconds: 46,
      end_call_reason: 'insufficient_balance',
    });
  }, 60_000);

  it('learns a balance cut from the gateway at once and hangs up a carrier_a call on its leg', async () => {
    const partner = await smallPartner();
    const { id, placed } = await startOnCarrier(partner, A, A_FROM, '+919812309077');
    expect((await fake.callbackA(placed, 'answer', { CallStatus: 'in-progress' })).status).toBe(200);
    expect((await getCall(partner.key, id)).status).toBe('in_progress');
    // Nothing to end while the balance covers the call.
    await new Promise((r) => setTimeout(r, 1500));
    expect(fake.hangups.filter((h) => h.provider === 'carrier_a')).toEqual([]);

    // The operator takes the balance away: the gateway's partner event reaches the calls service.
    const cut = await adminApi(`/partners/${partner.id}`, {
      method: 'PATCH',
      baseUrl: gateway,
      body: { balance_inr: 0 },
    });
    expect(cut.status).toBe(200);
    const hangup = await fake.waitForHangup(placed.legId, 10_000);
    expect(hangup).toEqual({ provider: 'carrier_a', id: placed.legId });
    expect(
      fake.requests.some(
        (r) => r.method === 'DELETE' && r.path === `/v1/Account/${A.id}/Call/${placed.legId}/`,
      ),
    ).toBe(true);

    const hung = { CallStatus: 'completed', Duration: '3', BillDuration: '3', HangupSource: 'API Request' };
    expect((await fake.callbackA(placed, 'hangup', hung)).status).toBe(200);
    expect(await getCall(partner.key, id)).toMatchObject({
      status: 'completed',
      end_call_reason: 'insufficient_balance',
    });
  }, 60_000);
});
