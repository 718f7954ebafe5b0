// A call that outruns the partner's balance, as a journey through the gateway and the voice service: a platform
// of its own (own database and NATS subject prefix) whose balance guard looks every half second. How the guard
// hangs up carrier_a and carrier_b calls through their REST APIs, and learns a balance cut from the gateway's
// partner event, is the calls service's balance-guard integration spec.
import { waitFor } from '@vap/testing';
import { api, CALL_SERVICES, OwnPlatform, startOwnPlatform } from '../../support';
import { callee, partnerWithListeningAgent } from './call-fixtures';

const TERMINAL = ['completed', 'failed', 'no_answer', 'busy', 'canceled'];
/** What the agent says when the platform ends a call (the voice service's Phrases.endFarewell). */
const FAREWELL = "I'm sorry, I have to end the call now. Goodbye.";

describe('calls end when the balance cannot cover them', () => {
  let own: OwnPlatform;
  let gateway: string;

  beforeAll(async () => {
    own = await startOwnPlatform({
      name: 'balance-guard',
      services: [...CALL_SERVICES, 'sandbox-carrier'],
      env: { BALANCE_GUARD_INTERVAL_MS: '500' },
    });
    gateway = own.platform.gatewayUrl;
  }, 120_000);

  afterAll(async () => {
    await own?.stop();
  });

  /** A partner funded for exactly one 30-second call (INR 2.00 at the default INR 4.00 a minute). */
  const smallPartner = () =>
    partnerWithListeningAgent(
      gateway,
      { name: 'Thin Wallet Co', balance_inr: 2, concurrency_limit: 3 },
      { agent_name: 'Long talks' },
    );

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
});
