// The start of a call survives its database going away at each step: a platform of its own on a Postgres
// server of its own, stopped as `pg_ctl stop -m immediate` does (SIGQUIT) and started again. Whatever the
// step, the call ends up either placed at the carrier and carried to its end, or failed
// (placement_interrupted), never left pending; the partner's only concurrency slot is free again after;
// and the starts answered during the outage get the envelope with 502, never a 500 or the driver's words.
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { Platform, waitFor } from '@vap/testing';
import { adminApi, api, ApiResponse, OwnPlatform, startOwnPlatform } from '../../support';
import { DecisionServer, startDecisionServer } from '../../support/decision-server';
import { CarrierAccount, FakeCarriers, PlacedCall, startFakeCarriers } from '../../support/fake-carriers';
import { OwnPostgres, startOwnPostgres } from '../../support/own-postgres';
import { createTestAgent } from '../telephony/telephony-fixtures';

const B: CarrierAccount = {
  provider: 'carrier_b',
  id: 'ACfake00000000000000000000000000d8',
  token: 'fake-carrier-b-token-outage',
};
const FROM = '+14155560088';
/** How long the placement answer takes: Postgres is stopped while it is under way. */
const CARRIER_DELAY_MS = 1500;
/** How long Postgres stays down. */
const OUTAGE_MS = 3000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Partner {
  key: string;
  agentId: string;
}

describe('the start of a call when Postgres stops', () => {
  let pg: OwnPostgres;
  let fake: FakeCarriers;
  let hooks: DecisionServer;
  let own: OwnPlatform;
  let platform: Platform;
  let n = 0;

  beforeAll(async () => {
    pg = await startOwnPostgres();
    fake = await startFakeCarriers();
    fake.addAccount(B);
    hooks = await startDecisionServer();
    own = await startOwnPlatform({
      name: 'pg_outage',
      postgresUrl: pg.url,
      services: ['agents', 'calls'],
      env: {
        CARRIER_B_BASE_URL: fake.url,
        CARRIER_HTTP_TIMEOUT_MS: '3000',
        PLACEMENT_RECOVERY_MS: '300',
        PLACEMENT_GRACE_SECS: '5',
        PLACEMENT_LOOKUP_MAX_SECS: '60',
        CARRIER_CHECK_RETRY_SECS: '1',
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        ...(process.env.E2E_TLS_CA ? { NODE_EXTRA_CA_CERTS: process.env.E2E_TLS_CA } : {}),
      },
    });
    platform = own.platform;
  }, 120_000);

  afterAll(async () => {
    await own?.stop().catch(() => undefined);
    await hooks?.close();
    await fake?.close();
    await pg?.dispose();
  });

  afterEach(async () => {
    fake.delayPlaceCalls(0);
    await pg.start().catch(() => undefined); // a failed test leaves the server running for the next
  });

  /** A partner with one concurrency slot, its agent, and the fake carrier_b account as its line. */
  async function createPartner(name: string): Promise<Partner> {
    const created = await adminApi('/partners', {
      baseUrl: platform.gatewayUrl,
      body: { name, balance_inr: 1000, concurrency_limit: 1 },
    });
    expect(created.status).toBe(200);
    const key = created.body.data.api_key as string;
    const agentId = (await createTestAgent(key, {}, platform.gatewayUrl)).id;
    const put = await api('/config/telephony/carrier_b', {
      method: 'PUT',
      key,
      baseUrl: platform.gatewayUrl,
      body: { account_sid: B.id, auth_token: B.token, from_number: FROM },
    });
    expect(put.status).toBe(200);
    return { key, agentId };
  }

  const nextCallee = () => `+1415558${String(1000 + n++).padStart(4, '0')}`;
  const start = (p: Partner, to: string, idempotencyKey: string): Promise<ApiResponse> =>
    api('/calls/start', {
      key: p.key,
      baseUrl: platform.gatewayUrl,
      body: { agent_id: p.agentId, to_number: to, from_number: FROM },
      headers: { 'Idempotency-Key': idempotencyKey },
    });
  const getCall = async (p: Partner, id: string) =>
    (await api(`/calls/${id}`, { key: p.key, baseUrl: platform.gatewayUrl })).body.data;
  const callOf = async (p: Partner, to: string) => {
    const listed = await api(`/calls`, { key: p.key, baseUrl: platform.gatewayUrl });
    return (listed.body.data.calls as { call_id: string; to_number: string }[]).find(
      (c) => c.to_number === to,
    );
  };
  const ended = (p: Partner, id: string) =>
    waitFor(
      async () => {
        const call = await getCall(p, id).catch(() => undefined);
        return call && ['completed', 'failed'].includes(call.status) ? call : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 250, description: `call ${id} to end` },
    );

  /** An answer given while the database was down: the envelope, 502, no driver text. */
  function expectOutageAnswer(res: ApiResponse): void {
    expect(res.status).toBe(502);
    expect(res.body.success).toBe(false);
    expect(res.body.error.code).toBe('INTERNAL_ERROR');
    expect(JSON.stringify(res.body)).not.toMatch(/ECONNREFUSED|terminat|connect /i);
  }

  /**
   * Stops the database while `first` (a start) is under way, expects the outage answer for it, runs `during`,
   * and brings the database back OUTAGE_MS later.
   */
  async function outageWhile(first: Promise<ApiResponse>, during?: () => Promise<void>): Promise<void> {
    await pg.crash();
    expectOutageAnswer(await first);
    await during?.();
    await sleep(OUTAGE_MS);
    await pg.start();
  }

  /**
   * The call's terminal events were recorded (in the calls service's outbox, published from there):
   * call.status.updated with terminal and the slot released, then session.completed.
   */
  async function expectTerminalEvents(callId: string): Promise<void> {
    const db = new Client({ connectionString: own.db.url });
    await db.connect();
    try {
      const subjects = await waitFor(
        async () => {
          const rows = (
            await db.query(
              `SELECT subject, event->'data' AS data FROM calls.outbox WHERE event->'data'->>'call_id' = $1`,
              [callId],
            )
          ).rows as { subject: string; data: { terminal?: boolean; concurrency_released?: boolean } }[];
          const done = rows.filter(
            (r) =>
              (r.subject === 'events.call.status_updated' &&
                r.data.terminal &&
                r.data.concurrency_released) ||
              r.subject === 'events.session.completed',
          );
          return done.length >= 2 ? done.map((r) => r.subject) : undefined;
        },
        { timeoutMs: 15_000, description: `the terminal events of call ${callId}` },
      );
      expect(subjects.sort()).toEqual(['events.call.status_updated', 'events.session.completed']);
    } finally {
      await db.end();
    }
  }

  /** The partner's only slot is free: a call starts and is placed, then ends as the carrier reports it. */
  async function expectSlotFree(p: Partner): Promise<void> {
    const to = nextCallee();
    const res = await start(p, to, randomUUID());
    expect(res.status).toBe(200);
    const placed = await fake.waitForCall(to);
    expect((await fake.callbackB(placed, { CallStatus: 'completed', CallDuration: '3' })).status).toBe(200);
    expect((await ended(p, res.body.data.call_id)).status).toBe('completed');
  }

  it('ends failed a call admitted but never dialled (stopped during its pre-call hook)', async () => {
    const p = await createPartner('Outage Hook');
    const hook = await api('/lifecycle-hooks', {
      method: 'POST',
      key: p.key,
      baseUrl: platform.gatewayUrl,
      body: { event: 'pre_call', url: hooks.url, timeout_ms: 3000 },
    });
    expect(hook.status).toBe(200);
    hooks.answerWith({ body: {}, delayMs: 1000 });
    const to = nextCallee();
    const idem = randomUUID();
    const before = hooks.requests.length;
    const first = start(p, to, idem);
    // The call is admitted (committed) when its hook is asked: the database goes away before the dial.
    await waitFor(() => (hooks.requests.length > before ? true : undefined), {
      timeoutMs: 10_000,
      description: 'the pre-call hook to be asked',
    });
    await outageWhile(first, async () => expectOutageAnswer(await start(p, nextCallee(), randomUUID())));
    hooks.answerWith({ body: {} });

    // The retry finds the admitted call; nothing dials it, and it ends failed within the grace.
    const retry = await start(p, to, idem);
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotency-replayed')).toBe('true');
    const call = await ended(p, retry.body.data.call_id);
    expect(call).toMatchObject({ status: 'failed', end_call_reason: 'placement_interrupted' });
    expect(fake.calls.filter((c) => c.to === to)).toHaveLength(0);
    await expectTerminalEvents(call.call_id);
    await expectSlotFree(p);
  }, 90_000);

  it('ends failed a call whose placement the carrier refused while the database was down', async () => {
    const p = await createPartner('Outage Refused');
    fake.delayPlaceCalls(CARRIER_DELAY_MS);
    fake.failNext(500);
    const to = nextCallee();
    const sent = fake.requests.length;
    const first = start(p, to, randomUUID());
    await waitFor(
      () =>
        fake.requests.slice(sent).some((r) => r.method === 'POST' && r.body.includes(encodeURIComponent(to)))
          ? true
          : undefined,
      { timeoutMs: 10_000, description: 'the placement to reach the carrier' },
    );
    await outageWhile(first);
    fake.delayPlaceCalls(0);

    const listed = await waitFor(() => callOf(p, to), { timeoutMs: 10_000, description: 'the call listed' });
    const call = await ended(p, listed.call_id);
    expect(call).toMatchObject({ status: 'failed', end_call_reason: 'placement_interrupted' });
    await expectTerminalEvents(call.call_id);
    await expectSlotFree(p);
  }, 90_000);

  it('finds a placed call whose carrier id was not saved, and carries it to its end', async () => {
    const p = await createPartner('Outage Placed');
    fake.delayPlaceCalls(CARRIER_DELAY_MS);
    const to = nextCallee();
    const first = start(p, to, randomUUID());
    const placed: PlacedCall = await fake.waitForCall(to);
    // The carrier has the call; its answer (the CallSid) comes while the database is down.
    await outageWhile(first);
    fake.delayPlaceCalls(0);

    const listed = await waitFor(() => callOf(p, to), { timeoutMs: 10_000, description: 'the call listed' });
    // The recovery lists the account's calls to the callee, adopts the one placement, and reads its record.
    const recordPath = `/Calls/${placed.providerCallId}.json`;
    await waitFor(() => (fake.requests.some((r) => r.path.endsWith(recordPath)) ? true : undefined), {
      timeoutMs: 30_000,
      description: 'the placement to be found again',
    });
    expect(fake.requests.some((r) => r.method === 'GET' && r.path.includes('/Calls.json?'))).toBe(true);
    expect((await getCall(p, listed.call_id)).status).toBe('pending');

    // The carrier's final callback now finds its call: it completes, billed for its talk.
    expect((await fake.callbackB(placed, { CallStatus: 'completed', CallDuration: '12' })).status).toBe(200);
    const call = await ended(p, listed.call_id);
    expect(call).toMatchObject({ status: 'completed', duration_seconds: 12 });
    expect(fake.calls.filter((c) => c.to === to)).toHaveLength(1);
    await expectTerminalEvents(call.call_id);
    await expectSlotFree(p);
  }, 90_000);

  it("takes a placed call's unsaved carrier id from its first signed callback", async () => {
    const p = await createPartner('Outage Callback');
    fake.delayPlaceCalls(CARRIER_DELAY_MS);
    const to = nextCallee();
    const first = start(p, to, randomUUID());
    const placed: PlacedCall = await fake.waitForCall(to);
    await outageWhile(first);
    fake.delayPlaceCalls(0);

    // Before the recovery would look (PLACEMENT_GRACE_SECS + CARRIER_HTTP_TIMEOUT_MS), the carrier reports.
    const listed = await waitFor(() => callOf(p, to), { timeoutMs: 10_000, description: 'the call listed' });
    expect((await fake.callbackB(placed, { CallStatus: 'ringing', SequenceNumber: '1' })).status).toBe(200);
    expect((await getCall(p, listed.call_id)).status).toBe('ringing');
    const done = { CallStatus: 'completed', CallDuration: '20', SequenceNumber: '3' };
    expect((await fake.callbackB(placed, done)).status).toBe(200);
    const call = await ended(p, listed.call_id);
    expect(call).toMatchObject({ status: 'completed', duration_seconds: 20 });
    await expectTerminalEvents(call.call_id);
    await expectSlotFree(p);
  }, 90_000);
});
