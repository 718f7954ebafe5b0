// Final carrier callbacks checked against the carrier's record, in the running calls module: a callback is
// signed with the partner's own carrier token, so the partner could forge one. The carriers are fakes of
// carrier_a's and carrier_b's REST APIs whose records the spec sets; callbacks arrive as the gateway forwards
// them. A forged end leaves the call live (and holding its slot), a record that contradicts a callback wins,
// and the charge session.completed carries is priced on what the carrier recorded.
import { randomUUID } from 'node:crypto';
import { DomainEvents, ErrorCode, PartnerContext, SessionCompletedData } from '@vap/messages';
import { waitFor } from '@vap/testing';
import { useIntegrationApp } from '@vap/testing/integration';
import { carrierAWebhook } from '../../testing/carrier-a-webhooks';
import { CarrierRequest, FakeSandboxCarrier } from '../../testing/fake-sandbox-carrier';
import { startCallsOnSandbox } from '../../testing/sandbox-calls';
import { callWebhook } from '../../testing/sandbox-webhooks';
import { carrierReconciliations } from './reconciliation.metrics';
import { answerAgents, approvedPartner } from '../../testing/spec-partners';

const PRICE_PER_MINUTE_PAISE = 400;
const paiseFor = (seconds: number) => Math.ceil((seconds * PRICE_PER_MINUTE_PAISE) / 60);
const A = { auth_id: 'MABILLING0000000001', auth_token: 'billing-carrier-a-token-01' };
const A_FROM = '+919812301000';
const B = { account_sid: 'ACbilling000000000000000000000001', auth_token: 'billing-carrier-b-token-01' };
const B_FROM = '+14155570100';

describe('final callbacks reconciled with the carrier record', () => {
  const sandbox = new FakeSandboxCarrier();
  const carrierA = new FakeSandboxCarrier();
  const carrierB = new FakeSandboxCarrier();

  const calls = useIntegrationApp(
    async () =>
      startCallsOnSandbox(sandbox, {
        env: {
          CARRIER_A_BASE_URL: await carrierA.listen(),
          CARRIER_B_BASE_URL: await carrierB.listen(),
          CALL_PRICE_PER_MINUTE_PAISE: String(PRICE_PER_MINUTE_PAISE),
          // Unconfirmed callbacks are looked at again after 0.3 s, 0.6 s, then given up on.
          CARRIER_RECONCILE_RETRY_MS: '300',
          CARRIER_RECONCILE_MAX_ATTEMPTS: '3',
        },
      }),
    { afterStop: () => Promise.all([sandbox.close(), carrierA.close(), carrierB.close()]) },
  );

  beforeAll(() => {
    answerAgents(calls.peers);
  });

  afterEach(() => {
    carrierB.recordHeld = undefined;
    carrierB.recordRefused = undefined;
  });

  /** A partner with one slot on its own carrier_b account. */
  async function carrierBPartner(): Promise<PartnerContext> {
    const partner = approvedPartner({ concurrencyLimit: 1 });
    await calls.send('calls.telephony.carrier_b_put', partner.id, { ...B, from_number: B_FROM });
    return partner;
  }

  async function carrierAPartner(): Promise<PartnerContext> {
    const partner = approvedPartner({ concurrencyLimit: 1 });
    await calls.send('calls.telephony.carrier_a_put', partner.id, { ...A, from_number: A_FROM });
    return partner;
  }

  const start = (partner: PartnerContext, to: string, from: string) =>
    calls.send('calls.call.start', partner, { agent_id: randomUUID(), to_number: to, from_number: from });
  const callOf = (partner: PartnerContext, id: string) => calls.send('calls.call.get', partner, { id });
  const chargeOf = async (id: string) =>
    (
      await calls.waitForEvent<SessionCompletedData>(
        DomainEvents.sessionCompleted,
        (e) => e.data.call_id === id,
      )
    ).data.credits_used_paise;

  /**
   * A carrier_b call answered by a person (`answeredSecsAgo` before now); `send` delivers its status callbacks
   * signed with the account token, `record` sets the carrier's record of it.
   */
  async function answeredB(partner: PartnerContext, to: string, answeredSecsAgo = 0) {
    const { call } = await start(partner, to, B_FROM);
    const placed = carrierB.requests.find((r) => r.path === '/Calls.json' && r.form.get('To') === to)!;
    const send = async (form: Record<string, string>) =>
      (
        await calls.send(
          'calls.callback.ingest',
          null,
          callWebhook(
            placed.form.get('StatusCallback')!,
            { CallSid: placed.sid!, AccountSid: B.account_sid, From: B_FROM, To: to, ...form },
            B.auth_token,
          ),
        )
      ).status;
    const record = (status: string, duration?: string) =>
      carrierB.known.set(placed.sid!, {
        to,
        from: B_FROM,
        status,
        ...(duration ? { duration } : {}),
        date_created: new Date().toUTCString(),
      });
    record('in-progress');
    const answeredAt = new Date(Date.now() - answeredSecsAgo * 1000).toUTCString();
    expect(await send({ CallStatus: 'in-progress', AnsweredBy: 'human', Timestamp: answeredAt })).toBe(200);
    return { id: call.call_id, send, record };
  }

  /** A carrier_a call answered on its leg; `send` delivers its callbacks signed with the account token. */
  async function answeredA(partner: PartnerContext, to: string) {
    const { call } = await start(partner, to, A_FROM);
    const placed: CarrierRequest = carrierA.requests.find(
      (r) => r.method === 'POST' && r.path === '/Call/' && JSON.parse(r.body).to === to,
    )!;
    const leg = randomUUID();
    const send = async (event: 'answer' | 'hangup', form: Record<string, string>) =>
      (
        await calls.send(
          'calls.callback.ingest',
          null,
          carrierAWebhook(
            (JSON.parse(placed.body) as Record<string, string>)[`${event}_url`],
            {
              CallUUID: leg,
              ALegUUID: leg,
              ALegRequestUUID: placed.sid!,
              From: A_FROM,
              To: to,
              Direction: 'outbound',
              ...form,
            },
            A.auth_token,
          ),
        )
      ).status;
    expect(await send('answer', { CallStatus: 'in-progress' })).toBe(200);
    return { id: call.call_id, leg, send };
  }

  it('does not end or undercharge a live carrier_b call on a forged, correctly signed busy callback', async () => {
    const partner = await carrierBPartner();
    const { id, send, record } = await answeredB(partner, '+14155571001');
    expect((await callOf(partner, id)).status).toBe('in_progress');

    // The partner signs a terminal callback with its own carrier token while the real call goes on.
    expect(await send({ Direction: 'outbound-api', CallStatus: 'busy', CallDuration: '0' })).toBe(200);
    expect(await callOf(partner, id)).toMatchObject({
      status: 'in_progress',
      carrier_reconciliation: 'pending',
    });
    // The call still holds the account's only slot.
    await expect(start(partner, '+14155571002', B_FROM)).rejects.toMatchObject({
      code: ErrorCode.LIMIT_REACHED,
    });

    // The carrier's real final callback ends it, billed for the duration the carrier recorded.
    record('completed', '95');
    expect(await send({ CallStatus: 'completed', CallDuration: '95' })).toBe(200);
    expect(await callOf(partner, id)).toMatchObject({
      status: 'completed',
      duration_seconds: 95,
      bill_duration_seconds: 95,
      carrier_reconciliation: 'verified',
    });
    expect(await chargeOf(id)).toBe(paiseFor(95));
    expect((await callOf(partner, id)).session.credits_used).toBe(paiseFor(95) / 100);
  });

  it('bills what the carrier recorded when a final carrier_b callback understates it', async () => {
    const partner = await carrierBPartner();
    const { id, send, record } = await answeredB(partner, '+14155571101');
    // The carrier ended the call after 130 s; a callback claiming 3 s is signed by the partner.
    record('completed', '130');
    expect(await send({ CallStatus: 'completed', CallDuration: '3' })).toBe(200);
    expect(await callOf(partner, id)).toMatchObject({
      status: 'completed',
      duration_seconds: 130,
      bill_duration_seconds: 130,
      carrier_reconciliation: 'verified',
    });
    expect(await chargeOf(id)).toBe(paiseFor(130));
  });

  it('answers a final callback without waiting for a carrier slow to confirm it, and settles it once it does', async () => {
    const partner = await carrierBPartner();
    const { id, send, record } = await answeredB(partner, '+14155571151');
    record('completed', '9');
    let confirm!: () => void;
    carrierB.recordHeld = new Promise((resolve) => (confirm = resolve));
    // The carrier is answered while its own record is still being asked for.
    expect(await send({ CallStatus: 'completed', CallDuration: '9' })).toBe(200);
    expect(await callOf(partner, id)).toMatchObject({
      status: 'in_progress',
      carrier_reconciliation: 'pending',
    });

    confirm();
    const settled = await waitFor(
      async () => {
        const c = await callOf(partner, id);
        return c.status === 'completed' ? c : undefined;
      },
      { description: 'the call completed once the carrier answered' },
    );
    expect(settled).toMatchObject({ bill_duration_seconds: 9, carrier_reconciliation: 'verified' });
    expect(await chargeOf(id)).toBe(paiseFor(9));
  });

  it('retries a carrier_b call the carrier cannot confirm, then ends it flagged and billed what was seen', async () => {
    const partner = await carrierBPartner();
    const unreconciled = async () =>
      (await carrierReconciliations.get()).values
        .filter((v) => v.labels.provider === 'carrier_b' && v.labels.outcome === 'unreconciled')
        .reduce((sum, v) => sum + v.value, 0);
    const before = await unreconciled();
    const { id, send } = await answeredB(partner, '+14155571201', 8);
    const answeredAt = Date.now() - 8000;
    carrierB.recordRefused = 503;
    expect(await send({ CallStatus: 'completed', CallDuration: '2' })).toBe(200);
    expect(await callOf(partner, id)).toMatchObject({
      status: 'in_progress',
      carrier_reconciliation: 'pending',
    });

    const flagged = await waitFor(
      async () => {
        const c = await callOf(partner, id);
        return c.carrier_reconciliation === 'unreconciled' ? c : undefined;
      },
      { description: 'the call flagged unreconciled' },
    );
    const seen = Math.floor((Date.now() - answeredAt) / 1000);
    expect(flagged.status).toBe('completed');
    expect(flagged.bill_duration_seconds).toBeGreaterThanOrEqual(8);
    // The answer's time comes from the callback's Timestamp, in whole seconds.
    expect(flagged.bill_duration_seconds).toBeLessThanOrEqual(seen + 2);
    expect(await chargeOf(id)).toBe(paiseFor(flagged.bill_duration_seconds!));
    expect(await unreconciled()).toBe(before + 1);
  });

  it('does not end a live carrier_a call on a forged hangup, and still takes the real one', async () => {
    const partner = await carrierAPartner();
    const { id, leg, send } = await answeredA(partner, '+919812371001');
    // The same hangup the carrier will send later (same kind and status), signed by the partner; the
    // carrier's record still has the call live.
    expect(await send('hangup', { CallStatus: 'completed', Duration: '1', BillDuration: '1' })).toBe(200);
    expect(await callOf(partner, id)).toMatchObject({
      status: 'in_progress',
      carrier_reconciliation: 'pending',
    });

    carrierA.carrierARecords.set(leg, {
      from_number: A_FROM,
      to_number: '+919812371001',
      call_state: 'ANSWER',
      call_duration: 40,
      bill_duration: 60,
    });
    const hangup = { CallStatus: 'completed', Duration: '40', BillDuration: '60', HangupSource: 'Callee' };
    expect(await send('hangup', hangup)).toBe(200);
    expect(await callOf(partner, id)).toMatchObject({
      status: 'completed',
      duration_seconds: 40,
      bill_duration_seconds: 60,
      carrier_reconciliation: 'verified',
    });
    expect(await chargeOf(id)).toBe(paiseFor(60));
  });

  it('keeps no detail of a carrier_a hangup callback whose status the carrier record contradicts', async () => {
    const partner = await carrierAPartner();
    const { id, leg, send } = await answeredA(partner, '+919812371051');
    // The carrier recorded an answered call that ended normally; the callback claims the callee was busy.
    carrierA.carrierARecords.set(leg, {
      from_number: A_FROM,
      to_number: '+919812371051',
      call_state: 'ANSWER',
      call_duration: 20,
      bill_duration: 20,
      hangup_cause_name: 'Normal Hangup',
    });
    const busy = {
      CallStatus: 'busy',
      HangupCause: 'USER_BUSY',
      HangupCauseName: 'User Busy',
      HangupSource: 'Callee',
      Duration: '0',
      BillDuration: '0',
    };
    expect(await send('hangup', busy)).toBe(200);
    expect(await callOf(partner, id)).toMatchObject({
      status: 'completed',
      bill_duration_seconds: 20,
      carrier_reconciliation: 'verified',
      hangup_cause: 'Normal Hangup',
      hangup_source: null,
    });
    expect(await chargeOf(id)).toBe(paiseFor(20));
  });
});
