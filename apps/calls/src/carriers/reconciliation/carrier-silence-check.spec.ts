// How the calls service asks the carrier about live calls it went quiet on, against a real Postgres with the
// calls migrations: a call whose media stream ended (or that was hung up) without a final status, or that
// rings too long, is looked up with the carrier's REST API and ended by what the carrier says; a call the
// carrier no longer knows ends carrier_call_lost, billed once for its answered time. The carrier is a fake
// registry whose call resource answers what each test sets.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { DomainEvents } from '@vap/messages';
import { OutboxService } from '@vap/messaging';
import { runMigrations } from '@vap/persistence';
import { createTestDatabase, TestDatabase } from '@vap/testing';
import { CarrierCallState } from '../carrier-adapter';
import { CarrierCallGone } from '../carrier-http';
import { CarrierRegistry } from '../carrier-registry';
import { CallsConfig } from '../../config/calls.config';
import { callsDataSourceOptions } from '../../database/data-source';
import { CallProgressService } from '../../progress/call-progress.service';
import { saveCall, saveConnection } from '../../testing/call-rows';
import { CarrierReconciler } from './carrier-reconciler.service';
import { CarrierSilenceCheck } from './carrier-silence-check.service';

jest.setTimeout(30_000);

const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

type Answer = CarrierCallState | 'gone' | 'down';

describe('CarrierSilenceCheck', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  let check: CarrierSilenceCheck;
  /** What the carrier's call resource answers, by the platform's call id (unset: the carrier is not asked). */
  const answers = new Map<string, Answer>();
  const asked: string[] = [];

  beforeAll(async () => {
    db = await createTestDatabase(SERVER_URL, 'vap_calls_silence_check');
    const config = Object.assign(new CallsConfig(), {
      DATABASE_URL: db.url,
      CARRIER_FINAL_STATUS_WAIT_SECS: 10,
      CARRIER_RING_CHECK_SECS: 120,
      CARRIER_CHECK_RETRY_SECS: 30,
    });
    await runMigrations(callsDataSourceOptions(config));
    dataSource = await new DataSource(callsDataSourceOptions(config)).initialize();
    const carriers = {
      get: () => ({
        fetchCall: async (call: { id: string; providerCallId: string }): Promise<CarrierCallState> => {
          asked.push(call.id);
          const answer = answers.get(call.id);
          if (answer === 'gone') throw new CarrierCallGone('carrier_b', call.providerCallId);
          if (answer === undefined || answer === 'down') throw new Error('carrier unreachable');
          return answer;
        },
      }),
    } as unknown as CarrierRegistry;
    const progress = new CallProgressService(dataSource, new OutboxService(), config);
    const reconciler = new CarrierReconciler(dataSource, carriers, progress, config);
    check = new CarrierSilenceCheck(dataSource, config, carriers, reconciler, progress);
  });

  afterEach(async () => {
    // Each test's calls are over, so that no later sweep looks at them.
    await dataSource.query(
      `UPDATE calls.calls SET status = 'failed' WHERE status IN ('pending', 'ringing', 'in_progress')`,
    );
    answers.clear();
    asked.length = 0;
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  /** A carrier_b call answered `answeredSecsAgo` ago whose media stream ended `streamEndedSecsAgo` ago. */
  async function quietCall(answeredSecsAgo: number, streamEndedSecsAgo: number | null): Promise<string> {
    const partnerId = randomUUID();
    const call = await saveCall(
      dataSource,
      {
        partnerId,
        connectionId: await saveConnection(dataSource, partnerId, 'carrier_b'),
        provider: 'carrier_b',
        startedAt: new Date(Date.now() - answeredSecsAgo * 1000),
      },
      { mediaStream: streamEndedSecsAgo === null ? 'live' : 'ended' },
    );
    if (streamEndedSecsAgo !== null) {
      await dataSource.query(
        `UPDATE calls.call_sessions SET media_stream_ended_at = now() - make_interval(secs => $2) WHERE call_id = $1`,
        [call.id, streamEndedSecsAgo],
      );
    }
    return call.id;
  }

  /** A placed call still ringing, created `secsAgo` ago. */
  async function ringingCall(secsAgo: number): Promise<string> {
    const partnerId = randomUUID();
    const call = await saveCall(dataSource, {
      partnerId,
      connectionId: await saveConnection(dataSource, partnerId, 'carrier_b'),
      provider: 'carrier_b',
      status: 'ringing',
      answeredBy: null,
    });
    await dataSource.query(
      `UPDATE calls.calls SET started_at = NULL, created_at = now() - make_interval(secs => $2) WHERE id = $1`,
      [call.id, secsAgo],
    );
    return call.id;
  }

  const callRow = async (id: string) =>
    (
      (await dataSource.query(
        `SELECT c.status, c.end_call_reason, c.hangup_cause, c.hangup_source, c.duration_seconds,
                c.bill_duration_seconds, c.carrier_reconciliation, c.error_message,
                (SELECT count(*)::int FROM calls.call_charges ch WHERE ch.call_id = c.id) AS charges,
                (SELECT count(*)::int FROM calls.outbox o
                  WHERE o.subject = $2 AND o.event->'data'->>'call_id' = c.id::text
                    AND (o.event->'data'->>'terminal')::boolean) AS ends_reported
           FROM calls.calls c WHERE c.id = $1`,
        [id, DomainEvents.callStatusUpdated],
      )) as Record<string, unknown>[]
    )[0];

  it('ends an answered call the carrier no longer knows, billed once for the time to its stream’s end', async () => {
    // Answered 60 s ago, its stream ended 15 s ago: 45 s were answered.
    const id = await quietCall(60, 15);
    answers.set(id, 'gone');

    expect(await check.sweep()).toBe(1);

    const row = await callRow(id);
    expect(row).toMatchObject({
      status: 'completed',
      end_call_reason: 'carrier_call_lost',
      hangup_cause: 'CARRIER_CALL_LOST',
      hangup_source: 'system',
      charges: 1,
      ends_reported: 1,
    });
    expect(row.bill_duration_seconds).toBeGreaterThanOrEqual(44);
    expect(row.bill_duration_seconds).toBeLessThanOrEqual(46);

    // Ended once: later sweeps (even once the retry is due) neither ask again nor bill again.
    await dataSource.query(`UPDATE calls.calls SET carrier_checked_at = now() - interval '1 hour'`);
    expect(await check.sweep()).toBe(0);
    expect(asked).toEqual([id]);
    expect(await callRow(id)).toMatchObject({ charges: 1, ends_reported: 1 });
  });

  it('waits CARRIER_FINAL_STATUS_WAIT_SECS after the stream’s end before asking', async () => {
    const recent = await quietCall(30, 3);
    const streaming = await quietCall(30, null);
    answers.set(recent, 'gone');
    answers.set(streaming, 'gone');
    expect(await check.sweep()).toBe(0);
    expect(asked).toEqual([]);
    expect(await callRow(recent)).toMatchObject({ status: 'in_progress' });
  });

  it('applies the final status the carrier’s record has, as its callback would', async () => {
    const id = await quietCall(80, 20);
    answers.set(id, {
      live: false,
      providerStatus: 'completed',
      durationSeconds: 58,
      billDurationSeconds: 60,
    });
    expect(await check.sweep()).toBe(1);
    expect(await callRow(id)).toMatchObject({
      status: 'completed',
      duration_seconds: 58,
      bill_duration_seconds: 60,
      carrier_reconciliation: 'verified',
      end_call_reason: null,
      charges: 1,
      ends_reported: 1,
    });
  });

  it('leaves a call the carrier says is live, and asks again only once the retry is due', async () => {
    const id = await quietCall(40, 20);
    answers.set(id, { live: true, providerStatus: 'in-progress' });
    expect(await check.sweep()).toBe(0);
    expect(await check.sweep()).toBe(0);
    expect(asked).toEqual([id]);
    expect(await callRow(id)).toMatchObject({ status: 'in_progress', charges: 0 });

    // The carrier cannot be asked: the call stays as it is for the next try.
    answers.set(id, 'down');
    await dataSource.query(
      `UPDATE calls.calls SET carrier_checked_at = now() - interval '31 seconds' WHERE id = $1`,
      [id],
    );
    expect(await check.sweep()).toBe(0);
    expect(await callRow(id)).toMatchObject({ status: 'in_progress' });

    answers.set(id, 'gone');
    await dataSource.query(
      `UPDATE calls.calls SET carrier_checked_at = now() - interval '31 seconds' WHERE id = $1`,
      [id],
    );
    expect(await check.sweep()).toBe(1);
    expect(await callRow(id)).toMatchObject({ status: 'completed', end_call_reason: 'carrier_call_lost' });
    expect(asked).toEqual([id, id, id]);
  });

  it('asks about a call hung up without a final status since', async () => {
    const id = await quietCall(40, null);
    await dataSource.query(
      `UPDATE calls.calls SET end_requested_at = now() - interval '11 seconds', end_requested_reason = 'agent_ended_call' WHERE id = $1`,
      [id],
    );
    answers.set(id, 'gone');
    expect(await check.sweep()).toBe(1);
    expect(await callRow(id)).toMatchObject({ status: 'completed', end_call_reason: 'carrier_call_lost' });
  });

  it('fails a call ringing past CARRIER_RING_CHECK_SECS that the carrier no longer knows, at no charge', async () => {
    const long = await ringingCall(121);
    const fresh = await ringingCall(30);
    answers.set(long, 'gone');
    answers.set(fresh, 'gone');
    expect(await check.sweep()).toBe(1);
    expect(asked).toEqual([long]);
    expect(await callRow(long)).toMatchObject({
      status: 'failed',
      end_call_reason: 'carrier_call_lost',
      error_message: 'The carrier lost the call before it was answered',
      bill_duration_seconds: 0,
      ends_reported: 1,
    });
    expect(await callRow(fresh)).toMatchObject({ status: 'ringing' });
  });

  it('two replicas sweeping at once ask and end once', async () => {
    const id = await quietCall(50, 20);
    answers.set(id, 'gone');
    const [a, b] = await Promise.all([check.sweep(), check.sweep()]);
    expect(a + b).toBe(1);
    expect(asked).toEqual([id]);
    expect(await callRow(id)).toMatchObject({ charges: 1, ends_reported: 1 });
  });
});
