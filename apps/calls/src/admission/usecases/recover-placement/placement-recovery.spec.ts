// How the calls service settles outbound calls whose start failed after their admission, against a real
// Postgres with the calls migrations: an undialled call past the grace ends failed (placement_interrupted,
// slot released, terminal event in the outbox); a dialled one without its carrier id is looked up at the
// carrier and adopts the one placement no other call holds, or ends when the carrier has none; while the
// carrier is unsure it waits, up to PLACEMENT_LOOKUP_MAX_SECS. The carrier is a fake registry.
import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { OutboxService } from '@vap/messaging';
import { runMigrations } from '@vap/persistence';
import { createTestDatabase, TestDatabase } from '@vap/testing';
import { Call } from '../../../calls/entities/call.entity';
import { CarrierCallState } from '../../../carriers/carrier-adapter';
import { CarrierRegistry } from '../../../carriers/carrier-registry';
import { CarrierReconciler } from '../../../carriers/reconciliation/carrier-reconciler.service';
import { CallsConfig } from '../../../config/calls.config';
import { TelephonyConfig } from '../../../config/telephony.config';
import { callsDataSourceOptions } from '../../../database/data-source';
import { CallProgressService } from '../../../progress/call-progress.service';
import { saveCall, saveConnection } from '../../../testing/call-rows';
import { PlacementRecovery } from './placement-recovery.service';

jest.setTimeout(30_000);

const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const GRACE_SECS = 10;
const HTTP_TIMEOUT_MS = 5000;
const LOOKUP_MAX_SECS = 120;

describe('PlacementRecovery', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  let recovery: PlacementRecovery;
  /** What the carrier's call list answers for a callee (unset: the carrier cannot be asked). */
  const placements = new Map<string, string[]>();
  /** What the carrier's call resource answers, by CallSid. */
  const records = new Map<string, CarrierCallState>();

  beforeAll(async () => {
    db = await createTestDatabase(SERVER_URL, 'vap_calls_placement_recovery');
    const config = Object.assign(new CallsConfig(), {
      DATABASE_URL: db.url,
      PLACEMENT_GRACE_SECS: GRACE_SECS,
      PLACEMENT_LOOKUP_MAX_SECS: LOOKUP_MAX_SECS,
      CARRIER_CHECK_RETRY_SECS: 30,
    });
    await runMigrations(callsDataSourceOptions(config));
    dataSource = await new DataSource(callsDataSourceOptions(config)).initialize();
    const carriers = {
      get: () => ({
        findPlacements: async (call: Call) => {
          const found = placements.get(call.toNumber);
          if (!found) throw new Error('carrier unreachable');
          return found;
        },
        fetchCall: async (call: Call): Promise<CarrierCallState> => {
          const record = records.get(call.providerCallId ?? '');
          if (!record) throw new Error('carrier unreachable');
          return record;
        },
      }),
    } as unknown as CarrierRegistry;
    const telephony = Object.assign(new TelephonyConfig(), { CARRIER_HTTP_TIMEOUT_MS: HTTP_TIMEOUT_MS });
    const progress = new CallProgressService(dataSource, new OutboxService(), config);
    const reconciler = new CarrierReconciler(dataSource, carriers, progress, config);
    recovery = new PlacementRecovery(dataSource, config, telephony, carriers, reconciler, progress);
  });

  afterEach(async () => {
    await dataSource.query(
      `UPDATE calls.calls SET status = 'failed' WHERE status IN ('pending', 'ringing', 'in_progress')`,
    );
    placements.clear();
    records.clear();
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  /** A pending carrier_b call with no carrier id, admitted `admittedSecsAgo` ago, its dial begun or not. */
  async function unplaced(admittedSecsAgo: number, dialStartedSecsAgo: number | null): Promise<Call> {
    const partnerId = randomUUID();
    const call = await saveCall(dataSource, {
      partnerId,
      connectionId: await saveConnection(dataSource, partnerId, 'carrier_b'),
      provider: 'carrier_b',
      providerCallId: null,
      toNumber: `+1415555${String(Math.floor(Math.random() * 10000)).padStart(4, '0')}`,
      status: 'pending',
      answeredBy: null,
      startedAt: null,
    });
    await dataSource.query(
      `UPDATE calls.calls SET created_at = now() - make_interval(secs => $2),
              dial_started_at = now() - make_interval(secs => $3)
        WHERE id = $1`,
      [call.id, admittedSecsAgo, dialStartedSecsAgo],
    );
    return call;
  }

  const reload = (id: string) => dataSource.getRepository(Call).findOneByOrFail({ id });
  const terminalEvents = async (id: string) =>
    (
      (await dataSource.query(
        `SELECT event->'data' AS data FROM calls.outbox
          WHERE subject = 'events.call.status_updated' AND event->'data'->>'call_id' = $1`,
        [id],
      )) as { data: { terminal: boolean; concurrency_released: boolean } }[]
    ).filter((r) => r.data.terminal && r.data.concurrency_released);

  it('ends failed a call never handed to the carrier once past the grace, and leaves a younger one', async () => {
    const stale = await unplaced(GRACE_SECS + 1, null);
    const young = await unplaced(GRACE_SECS - 3, null);
    expect(await recovery.sweep()).toBe(1);
    expect(await reload(stale.id)).toMatchObject({
      status: 'failed',
      endCallReason: 'placement_interrupted',
      hangupCause: 'PLACEMENT_INTERRUPTED',
      hangupSource: 'system',
    });
    expect(await terminalEvents(stale.id)).toHaveLength(1);
    expect((await reload(young.id)).status).toBe('pending');
  });

  it('adopts the one placement the carrier lists, and ends the call as its record says', async () => {
    const call = await unplaced(60, GRACE_SECS + HTTP_TIMEOUT_MS / 1000 + 1);
    const sid = `CA${randomBytes(16).toString('hex')}`;
    placements.set(call.toNumber, [sid]);
    records.set(sid, {
      live: false,
      providerStatus: 'completed',
      durationSeconds: 30,
      billDurationSeconds: 30,
    });
    expect(await recovery.sweep()).toBe(1);
    expect(await reload(call.id)).toMatchObject({
      providerCallId: sid,
      status: 'completed',
      durationSeconds: 30,
    });
    expect(await terminalEvents(call.id)).toHaveLength(1);
  });

  it('keeps a live placement it adopted live, and waits for a dial still within the carrier timeout', async () => {
    const live = await unplaced(60, GRACE_SECS + HTTP_TIMEOUT_MS / 1000 + 1);
    const recent = await unplaced(60, GRACE_SECS);
    const sid = `CA${randomBytes(16).toString('hex')}`;
    placements.set(live.toNumber, [sid]);
    placements.set(recent.toNumber, []);
    records.set(sid, { live: true, providerStatus: 'ringing' });
    await recovery.sweep();
    expect(await reload(live.id)).toMatchObject({ providerCallId: sid, status: 'pending' });
    expect(await reload(recent.id)).toMatchObject({ providerCallId: null, status: 'pending' });
  });

  it("ends a dialled call the carrier has no placement of, counting another call's as not its own", async () => {
    const other = await unplaced(60, 30);
    const taken = `CA${randomBytes(16).toString('hex')}`;
    await dataSource.query(`UPDATE calls.calls SET provider_call_id = $2 WHERE id = $1`, [other.id, taken]);
    const call = await unplaced(60, GRACE_SECS + HTTP_TIMEOUT_MS / 1000 + 1);
    placements.set(call.toNumber, [taken]);
    expect(await recovery.sweep()).toBe(1);
    expect(await reload(call.id)).toMatchObject({
      providerCallId: null,
      status: 'failed',
      endCallReason: 'placement_interrupted',
    });
  });

  it('waits while the carrier cannot say or names several, then ends the call after the lookup window', async () => {
    const unsure = await unplaced(60, GRACE_SECS + HTTP_TIMEOUT_MS / 1000 + 1);
    const several = await unplaced(60, GRACE_SECS + HTTP_TIMEOUT_MS / 1000 + 1);
    placements.set(several.toNumber, ['CA1', 'CA2']);
    expect(await recovery.sweep()).toBe(0);
    expect((await reload(unsure.id)).status).toBe('pending');
    expect((await reload(several.id)).status).toBe('pending');
    // Asked once per retry period: a second pass right away leaves them alone.
    expect(await recovery.sweep()).toBe(0);

    await dataSource.query(
      `UPDATE calls.calls SET dial_started_at = now() - make_interval(secs => $2), carrier_checked_at = NULL
        WHERE id = ANY($1::uuid[])`,
      [[unsure.id, several.id], LOOKUP_MAX_SECS + 1],
    );
    expect(await recovery.sweep()).toBe(2);
    for (const id of [unsure.id, several.id]) {
      expect(await reload(id)).toMatchObject({ status: 'failed', endCallReason: 'placement_interrupted' });
    }
  });
});
