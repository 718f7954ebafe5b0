// Billing that cannot be lost, through the gateway's ledger: a platform of its own (own database and NATS subject
// prefix) whose carriers are the local fake carrier, with a fast billing reconciler, so a charge whose
// session.completed never comes, or comes twice, is still debited exactly once within a test. How the calls
// service fixes a charge from the carrier record (forged, understated, contradicted, slow or unconfirmable final
// callbacks on carrier_a and carrier_b) is its callback-reconciliation integration spec, and the charge of an
// answered call the stale sweeper ends its sweep-stale-calls integration spec.
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { Platform, waitFor } from '@vap/testing';
import { adminApi, api, CALL_SERVICES, OwnPlatform, startOwnPlatform } from '../../support';
import { CarrierAccount, FakeCarriers, PlacedCall, startFakeCarriers } from '../../support/fake-carriers';
import { createTestAgent } from '../telephony/telephony-fixtures';

const PRICE_PER_MINUTE_PAISE = 400;
const paiseFor = (seconds: number) => Math.ceil((seconds * PRICE_PER_MINUTE_PAISE) / 60);

interface Partner {
  key: string;
  account: CarrierAccount;
  from: string;
  agentId: string;
}

describe('billing that cannot be evaded or lost', () => {
  let fake: FakeCarriers;
  let own: OwnPlatform;
  let sql: Client;
  let platform: Platform;
  let gateway: string;
  let accounts = 0;

  beforeAll(async () => {
    fake = await startFakeCarriers();
    own = await startOwnPlatform({
      name: 'billing',
      services: CALL_SERVICES,
      env: {
        CARRIER_A_BASE_URL: fake.url,
        CARRIER_B_BASE_URL: fake.url,
        CALL_PRICE_PER_MINUTE_PAISE: String(PRICE_PER_MINUTE_PAISE),
        BILLING_RECONCILE_INTERVAL_MS: '1000',
      },
    });
    platform = own.platform;
    gateway = platform.gatewayUrl;
    sql = new Client({ connectionString: own.db.url });
    await sql.connect();
  }, 120_000);

  afterAll(async () => {
    await sql?.end();
    await own?.stop();
    await fake?.close();
  });

  /** A partner on its own carrier account (carrier_b unless said), with an agent capped at `maxSecs`. */
  async function partner(
    concurrency: number,
    maxSecs = 600,
    provider: CarrierAccount['provider'] = 'carrier_b',
  ): Promise<Partner> {
    const n = String(++accounts).padStart(2, '0');
    const account: CarrierAccount = {
      provider,
      id: provider === 'carrier_b' ? `ACbilling0000000000000000000000${n}` : `MABILLING00000000${n}`,
      token: `billing-carrier-token-${n}`,
    };
    fake.addAccount(account);
    const created = await adminApi('/partners', {
      method: 'POST',
      baseUrl: gateway,
      body: { name: `Billing ${n}`, balance_inr: 100, concurrency_limit: concurrency },
    });
    expect(created.status).toBe(200);
    const key = created.body.data.api_key as string;
    const from = provider === 'carrier_b' ? `+1415557${n}00` : `+9198123${n}000`;
    const put = await api(`/config/telephony/${provider}`, {
      method: 'PUT',
      key,
      baseUrl: gateway,
      body:
        provider === 'carrier_b'
          ? { account_sid: account.id, auth_token: account.token, from_number: from }
          : { auth_id: account.id, auth_token: account.token, from_number: from },
    });
    expect(put.status).toBe(200);
    const agent = await createTestAgent(key, { max_call_duration_secs: maxSecs }, gateway);
    return { key, account, from, agentId: agent.id };
  }

  const call = (p: Partner, path: string, options: { method?: string; body?: unknown } = {}) =>
    api(path, { ...options, key: p.key, baseUrl: gateway });

  async function start(p: Partner, to: string): Promise<{ id: string; placed: PlacedCall }> {
    const res = await call(p, '/calls/start', {
      body: { agent_id: p.agentId, to_number: to, from_number: p.from },
    });
    expect(res.status).toBe(200);
    return { id: res.body.data.call_id, placed: await fake.waitForCall(to) };
  }

  async function answer(placed: PlacedCall): Promise<void> {
    const res = await fake.callbackB(
      placed,
      { CallStatus: 'in-progress', AnsweredBy: 'human' },
      { target: 'answer' },
    );
    expect(res.status).toBe(200);
  }

  const getCall = async (p: Partner, id: string) => (await call(p, `/calls/${id}`)).body.data;
  const balancePaise = async (p: Partner) =>
    Math.round((await call(p, '/billing/balance')).body.data.balance_inr * 100);

  async function ledgerEntries(callId: string): Promise<number[]> {
    const { rows } = await sql.query<{ amount_paise: string }>(
      'SELECT amount_paise FROM gateway.ledger_entries WHERE reference = $1',
      [`call:${callId}`],
    );
    return rows.map((r) => Number(r.amount_paise));
  }

  async function expectChargedOnce(p: Partner, callId: string, paise: number): Promise<void> {
    await waitFor(async () => (await balancePaise(p)) === 10_000 - paise || undefined, {
      timeoutMs: 20_000,
      description: `a debit of ${paise} paise for call ${callId}`,
    });
    // Nothing more arrives later (event, reconciler rounds, retries).
    await new Promise((r) => setTimeout(r, 3000));
    expect(await balancePaise(p)).toBe(10_000 - paise);
    expect(await ledgerEntries(callId)).toEqual([-paise]);
  }

  it('charges a session whose post-call job failed every attempt (no session.completed), once', async () => {
    const p = await partner(5);
    const { id, placed } = await start(p, '+14155571401');
    // The job queue gave up on this call: session.completed will never be recorded.
    await sql.query(`INSERT INTO calls.post_call_jobs (call_id, status, attempts) VALUES ($1, 'dead', 8)`, [
      id,
    ]);
    await answer(placed);
    expect((await fake.callbackB(placed, { CallStatus: 'completed', CallDuration: '30' })).status).toBe(200);
    await expectChargedOnce(p, id, paiseFor(30));
    const after = await getCall(p, id);
    expect(after.session).toMatchObject({ processing_complete: false, credits_used: paiseFor(30) / 100 });
    const { rows } = await sql.query('SELECT billed_at FROM calls.call_charges WHERE call_id = $1', [id]);
    expect(rows[0].billed_at).not.toBeNull();
  });

  it('charges once when session.completed is delivered again and the reconciler sees the call too', async () => {
    const p = await partner(5);
    const { id, placed } = await start(p, '+14155571501');
    await answer(placed);
    expect((await fake.callbackB(placed, { CallStatus: 'completed', CallDuration: '45' })).status).toBe(200);
    await expectChargedOnce(p, id, paiseFor(45));
    await waitFor(
      async () =>
        (
          await sql.query('SELECT 1 FROM calls.call_charges WHERE call_id = $1 AND billed_at IS NOT NULL', [
            id,
          ])
        ).rowCount || undefined,
      { timeoutMs: 10_000, description: 'the charge acknowledged' },
    );
    // The acknowledgement was lost, and the event goes out again under a new id (a replayed outbox).
    await sql.query('UPDATE calls.call_charges SET billed_at = NULL WHERE call_id = $1', [id]);
    const copied = await sql.query(
      `INSERT INTO calls.outbox (id, subject, event)
       SELECT $2::uuid, subject, jsonb_set(event, '{id}', to_jsonb($2::text))
         FROM calls.outbox
        WHERE subject LIKE '%session.completed' AND event->'data'->>'call_id' = $1`,
      [id, randomUUID()],
    );
    expect(copied.rowCount).toBe(1);
    await waitFor(
      async () =>
        (
          await sql.query('SELECT 1 FROM calls.call_charges WHERE call_id = $1 AND billed_at IS NOT NULL', [
            id,
          ])
        ).rowCount || undefined,
      { timeoutMs: 10_000, description: 'the charge acknowledged again' },
    );
    await expectChargedOnce(p, id, paiseFor(45));
  });
});
