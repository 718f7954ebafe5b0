// A carrier_a placement whose outcome the calls service could not learn, in the running calls module: the
// carrier (a fake of carrier_a's REST API) takes the place-call request but answers after the service stopped
// waiting (CARRIER_HTTP_TIMEOUT_MS). carrier_a lists no calls, so the placement recovery (run by the spec) cannot
// look the call up: it stays pending until its own signed callbacks name it, and past PLACEMENT_LOOKUP_MAX_SECS
// it ends failed; a call given up on that the carrier then reports live is hung up at the carrier.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { waitFor } from '@vap/testing';
import { useIntegrationApp } from '@vap/testing/integration';
import { carrierAWebhook } from '../../../testing/carrier-a-webhooks';
import { CarrierRequest, FakeSandboxCarrier } from '../../../testing/fake-sandbox-carrier';
import { startCallsOnSandbox } from '../../../testing/sandbox-calls';
import { answerAgents, approvedPartner } from '../../../testing/spec-partners';
import { PlacementRecovery } from './placement-recovery.service';

const A = { auth_id: 'MAFAKEUNKNOWNPLACE01', auth_token: 'fake-carrier-a-token-unknown' };
const A_FROM = '+919812390001';
const GRACE_SECS = 5;
const DIAL_TIMEOUT_MS = 1000;
const LOOKUP_MAX_SECS = 10;

describe('a carrier_a placement the carrier answers too late', () => {
  let dataSource: DataSource;
  const sandbox = new FakeSandboxCarrier();
  const carrierA = new FakeSandboxCarrier();
  const partner = approvedPartner({ concurrencyLimit: 10 });
  let n = 0;

  const calls = useIntegrationApp(
    async () =>
      startCallsOnSandbox(sandbox, {
        env: {
          CARRIER_A_BASE_URL: await carrierA.listen(),
          CARRIER_HTTP_TIMEOUT_MS: String(DIAL_TIMEOUT_MS),
          PLACEMENT_GRACE_SECS: String(GRACE_SECS),
          PLACEMENT_LOOKUP_MAX_SECS: String(LOOKUP_MAX_SECS),
          CARRIER_CHECK_RETRY_SECS: '1',
          // The spec runs the recovery itself.
          PLACEMENT_RECOVERY_MS: '60000',
        },
      }),
    { afterStop: () => Promise.all([sandbox.close(), carrierA.close()]) },
  );

  beforeAll(async () => {
    answerAgents(calls.peers);
    dataSource = calls.get(DataSource);
    await calls.send('calls.telephony.carrier_a_put', partner.id, { ...A, from_number: A_FROM });
  });

  /** Starts a call whose placement the carrier answers only after the service stopped waiting. */
  async function startLate(): Promise<{ id: string; placed: CarrierRequest; to: string }> {
    let answerLate!: () => void;
    carrierA.placementHeld = new Promise((resolve) => (answerLate = resolve));
    const to = `+91981239${String(1000 + n++).padStart(4, '0')}`;
    const { call } = await calls.send('calls.call.start', partner, {
      agent_id: randomUUID(),
      to_number: to,
      from_number: A_FROM,
    });
    // The carrier may have the call: the start answers it, pending, instead of a failure.
    expect(call.status).toBe('pending');
    answerLate();
    carrierA.placementHeld = undefined;
    const placed = carrierA.requests.find(
      (r) => r.method === 'POST' && r.path === '/Call/' && JSON.parse(r.body).to === to,
    )!;
    return { id: call.call_id, placed, to };
  }

  /** Puts the call's dial start (and the recovery's last look) `secs` further in the past, as if that long had gone by. */
  const dialledAgo = (id: string, secs: number) =>
    dataSource.query(
      `UPDATE calls.calls SET created_at = created_at - make_interval(secs => $2),
              dial_started_at = dial_started_at - make_interval(secs => $2),
              carrier_checked_at = carrier_checked_at - make_interval(secs => $2) WHERE id = $1`,
      [id, secs],
    );
  const callback = (
    placed: CarrierRequest,
    event: 'answer' | 'ring' | 'hangup',
    form: Record<string, string>,
  ) =>
    calls.send(
      'calls.callback.ingest',
      null,
      carrierAWebhook(
        (JSON.parse(placed.body) as Record<string, string>)[`${event}_url`],
        { ALegRequestUUID: placed.sid!, Direction: 'outbound', ...form },
        A.auth_token,
      ),
    );
  const callOf = (id: string) => calls.send('calls.call.get', partner, { id });
  const hangupsOf = (leg: string) =>
    carrierA.requests.filter((r) => r.method === 'DELETE' && r.path.includes(leg));

  it('hangs up at the carrier a call it gave up on, once the carrier reports it live', async () => {
    const { id, placed } = await startLate();
    // Inside the lookup window the recovery cannot tell; past it, the call ends.
    await dialledAgo(id, GRACE_SECS + DIAL_TIMEOUT_MS / 1000 + 1);
    expect(await calls.get(PlacementRecovery).sweep()).toBe(0);
    expect((await callOf(id)).status).toBe('pending');
    await dialledAgo(id, LOOKUP_MAX_SECS);
    expect(await calls.get(PlacementRecovery).sweep()).toBe(1);
    expect(await callOf(id)).toMatchObject({ status: 'failed', end_call_reason: 'placement_interrupted' });

    // The carrier did place it, and now rings the callee: the platform hangs the call up there.
    const leg = randomUUID();
    expect((await callback(placed, 'ring', { CallUUID: leg, CallStatus: 'ringing' })).status).toBe(200);
    await waitFor(() => hangupsOf(leg).length > 0, { description: 'the hang-up at the carrier' });
    expect(hangupsOf(leg).map((r) => r.path)).toEqual([`/Call/${leg}/`]);
    // Asked for instructions, the answer hangs up too: no media stream for an ended call.
    const answer = await callback(placed, 'answer', { CallUUID: leg, CallStatus: 'in-progress' });
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('<Hangup/>');
    expect(answer.body).not.toContain('<Stream');
    expect(await callOf(id)).toMatchObject({ status: 'failed', end_call_reason: 'placement_interrupted' });
  });

  it('follows a call placed after the dial timed out once its first callback names it', async () => {
    const { id, placed, to } = await startLate();
    // Past the point where the recovery looks (grace and dial timeout), within the lookup window.
    await dialledAgo(id, GRACE_SECS + DIAL_TIMEOUT_MS / 1000 + 1);
    expect(await calls.get(PlacementRecovery).sweep()).toBe(0);
    expect((await callOf(id)).status).toBe('pending');

    const leg = randomUUID();
    expect((await callback(placed, 'ring', { CallUUID: leg, CallStatus: 'ringing' })).status).toBe(200);
    expect((await callOf(id)).status).toBe('ringing');
    carrierA.carrierARecords.set(leg, {
      from_number: A_FROM,
      to_number: to,
      call_state: 'ANSWER',
      call_duration: 9,
      bill_duration: 9,
      hangup_cause_name: 'Normal Hangup',
    });
    const hangup = {
      CallUUID: leg,
      CallStatus: 'completed',
      Duration: '9',
      BillDuration: '9',
      HangupCauseName: 'NORMAL_CLEARING',
    };
    expect((await callback(placed, 'hangup', hangup)).status).toBe(200);
    expect(await callOf(id)).toMatchObject({ status: 'completed', duration_seconds: 9 });
    expect([...hangupsOf(leg), ...hangupsOf(placed.sid!)]).toEqual([]);
  });
});
