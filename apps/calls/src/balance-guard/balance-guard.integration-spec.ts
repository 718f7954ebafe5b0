// The balance guard in the running calls module: calls that outrun the partner's balance are hung up through
// the carrier's REST API (fakes of carrier_a's and carrier_b's, outside the platform), new calls are refused
// meanwhile, and the reason stays on the call when the carrier reports the end. The gateway's partner events
// are published as the gateway records them; the spec runs the guard's sweep itself instead of waiting for it.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { PartnerDto } from '@vap/api';
import { DomainEvents, ErrorCode, PartnerContext } from '@vap/messages';
import { useIntegrationApp } from '@vap/testing/integration';
import { CredentialsStore } from '../telephony/connections/credentials-store.service';
import { ConnectionCredentials } from '../telephony/connections/entities/connection-credentials.entity';
import { saveCall, saveConnection } from '../testing/call-rows';
import { FakeSandboxCarrier } from '../testing/fake-sandbox-carrier';
import { startCallsOnSandbox, storedCall } from '../testing/sandbox-calls';
import { callWebhook } from '../testing/sandbox-webhooks';
import { answerAgents, approvedPartner } from '../testing/spec-partners';
import { BalanceGuard } from './balance-guard.service';

const B = { account_sid: 'ACfake00000000000000000000000000c7', auth_token: 'fake-carrier-b-token-0007' };
const B_FROM = '+14155560077';
const A = { auth_id: 'MAFAKEACCOUNT0000077', auth_token: 'fake-carrier-a-token-0077' };
/** Exactly one 30-second call at the platform's INR 4.00 a minute. */
const BALANCE_PAISE = 200;

describe('balance guard', () => {
  let dataSource: DataSource;
  let guard: BalanceGuard;
  const sandbox = new FakeSandboxCarrier();
  const carrierA = new FakeSandboxCarrier();
  const carrierB = new FakeSandboxCarrier();

  const calls = useIntegrationApp(
    async () =>
      startCallsOnSandbox(sandbox, {
        env: {
          CARRIER_A_BASE_URL: await carrierA.listen(),
          CARRIER_B_BASE_URL: await carrierB.listen(),
          // The longest interval allowed, well past the spec: the spec runs the sweep itself, when it chooses.
          BALANCE_GUARD_INTERVAL_MS: '60000',
        },
      }),
    { afterStop: () => Promise.all([sandbox.close(), carrierA.close(), carrierB.close()]) },
  );

  beforeAll(() => {
    answerAgents(calls.peers);
    dataSource = calls.get(DataSource);
    guard = calls.get(BalanceGuard);
  });

  /** The partner as the gateway's events.partner.updated carries it, with the balance given. */
  async function partnerUpdated(
    partner: PartnerContext,
    balancePaise: number,
    version: number,
  ): Promise<void> {
    const data = {
      id: partner.id,
      status: partner.status,
      balance_inr: balancePaise / 100,
      concurrency_limit: partner.concurrencyLimit,
      updated_at: new Date(Date.UTC(2026, 0, 1, 0, 0, version)).toISOString(),
      version,
      reseller_id: null,
    } as Partial<PartnerDto> as PartnerDto;
    const { seq } = await calls.publish(DomainEvents.partnerUpdated, data, partner.id);
    await calls.waitForConsumed('calls__partner_updated', seq);
  }

  it('hangs up a carrier_b call through the carrier REST API, refuses new calls meanwhile, and keeps the reason on the call', async () => {
    const partner = approvedPartner({ balancePaise: BALANCE_PAISE, concurrencyLimit: 3 });
    await calls.send('calls.telephony.carrier_b_put', partner.id, { ...B, from_number: B_FROM });
    const start = (to: string) =>
      calls.send('calls.call.start', partner, { agent_id: randomUUID(), to_number: to, from_number: B_FROM });
    const { call: started } = await start('+14155569001');
    const placed = carrierB.requests.find(
      (r) => r.path === '/Calls.json' && r.form.get('To') === '+14155569001',
    )!;
    const callback = (form: Record<string, string>) =>
      calls.send(
        'calls.callback.ingest',
        null,
        callWebhook(placed.form.get('StatusCallback')!, { CallSid: placed.sid!, ...form }, B.auth_token),
      );

    expect((await callback({ CallStatus: 'ringing', SequenceNumber: '1' })).status).toBe(200);
    // Nothing to end while the balance covers the call.
    expect(await guard.sweep()).toBe(0);
    // The carrier reports the answer 45 s after the fact: the call has already cost INR 3.00 of INR 2.00.
    const answered = await callback({
      CallStatus: 'in-progress',
      AnsweredBy: 'human',
      SequenceNumber: '2',
      Timestamp: new Date(Date.now() - 45_000).toUTCString(),
    });
    expect(answered.status).toBe(200);

    expect(await guard.sweep()).toBe(1);
    const hangups = carrierB.onCall(placed.sid!).filter((r) => r.method === 'POST');
    expect(hangups.map((r) => r.form.get('Status'))).toEqual(['completed']);
    expect(hangups[0].authorization).toBe(
      `Basic ${Buffer.from(`${B.account_sid}:${B.auth_token}`).toString('base64')}`,
    );
    expect((await calls.send('calls.call.get', partner, { id: started.call_id })).status).toBe('in_progress');
    // Meanwhile the partner cannot start another call, and the hang-up is not asked for twice at once.
    await expect(start('+14155569002')).rejects.toMatchObject({
      code: ErrorCode.FORBIDDEN,
      message: expect.stringMatching(/balance/i),
    });
    expect(await guard.sweep()).toBe(0);

    // The carrier hangs up and reports it, without a reason of its own.
    carrierB.known.set(placed.sid!, {
      to: '+14155569001',
      from: B_FROM,
      status: 'completed',
      duration: '46',
      date_created: new Date().toUTCString(),
    });
    expect(
      (await callback({ CallStatus: 'completed', CallDuration: '46', SequenceNumber: '3' })).status,
    ).toBe(200);
    expect(await calls.send('calls.call.get', partner, { id: started.call_id })).toMatchObject({
      status: 'completed',
      duration_seconds: 46,
      end_call_reason: 'insufficient_balance',
    });
  });

  it('learns a balance cut from the gateway event and hangs up a carrier_a call on its answered leg', async () => {
    const partner = approvedPartner({ balancePaise: BALANCE_PAISE, version: 1 });
    await partnerUpdated(partner, BALANCE_PAISE, 1);
    const connectionId = await saveConnection(dataSource, partner.id, 'carrier_a');
    const sealed = calls.get(CredentialsStore).seal(connectionId, A);
    await dataSource
      .getRepository(ConnectionCredentials)
      .insert({ connectionId, partnerId: partner.id, accountIdMasked: 'MA…77', sealed });
    const legId = randomUUID();
    const call = await saveCall(dataSource, {
      partnerId: partner.id,
      connectionId,
      provider: 'carrier_a',
      carrierLegId: legId,
    });

    // Nothing to end while the balance covers the call.
    expect(await guard.sweep()).toBe(0);
    expect(carrierA.requests.filter((r) => r.method === 'DELETE')).toEqual([]);

    // The operator takes the balance away: the gateway's partner event reaches the calls service.
    await partnerUpdated(partner, 0, 2);
    expect(await guard.sweep()).toBe(1);
    const hangups = carrierA.requests.filter((r) => r.method === 'DELETE');
    expect(hangups.map((r) => r.path)).toEqual([`/Call/${legId}/`]);
    expect(hangups[0].authorization).toBe(
      `Basic ${Buffer.from(`${A.auth_id}:${A.auth_token}`).toString('base64')}`,
    );
    // The end is asked for with its reason, which the call keeps when the carrier reports the end.
    expect((await storedCall(dataSource, call.id)).call).toMatchObject({
      status: 'in_progress',
      endRequestedReason: 'insufficient_balance',
    });
  });
});
