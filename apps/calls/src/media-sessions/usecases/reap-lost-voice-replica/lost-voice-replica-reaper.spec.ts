// How the calls service ends the calls of a voice replica that is gone, against a real Postgres with the calls
// migrations and real NATS (the heartbeat bucket in JetStream): a replica that beats keeps its calls; one
// without a heartbeat has its live calls hung up at the carrier and ended through the progress path, billed
// for the time they ran, transcript kept, post-call processing woken. The carrier is a recorder.
import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { VoiceReplicaHeartbeat } from '@vap/messages';
import { HeartbeatBucket, NatsConnectionService, OutboxService } from '@vap/messaging';
import { runMigrations } from '@vap/persistence';
import { ManualClock } from '@vap/runtime';
import { createTestDatabase, deleteJetStreamByPrefix, TestDatabase } from '@vap/testing';
import { CarrierRegistry } from '../../../carriers/carrier-registry';
import { CallsConfig } from '../../../config/calls.config';
import { callsDataSourceOptions } from '../../../database/data-source';
import { CallProgressService } from '../../../progress/call-progress.service';
import { saveCall, saveConnection } from '../../../testing/call-rows';
import { LostVoiceReplicaReaper } from './lost-voice-replica-reaper.service';
import { BrowserTransport } from '../../../carriers/browser/browser-transport';
import { CallTransports } from '../../../carriers/call-transport';

jest.setTimeout(30_000);

const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const NATS_URL = process.env.NATS_URL || 'nats://127.0.0.1:4222';

describe('LostVoiceReplicaReaper', () => {
  const prefix = `reaper_${randomBytes(4).toString('hex')}`;
  let db: TestDatabase;
  let dataSource: DataSource;
  let nats: NatsConnectionService;
  let heartbeats: HeartbeatBucket;
  let reaper: LostVoiceReplicaReaper;
  /** The calls replica's clock, against which it reads the heartbeat bucket's age. */
  let clock: ManualClock;
  /** Just before the heartbeat bucket was made, and an instant once it is older than the lapse. */
  let bucketNew: Date;
  const bucketOld = () => new Date(Date.now() + VoiceReplicaHeartbeat.lapseMs + 1000);
  const hangups: { callId: string; reason: string }[] = [];
  let failHangups = false;

  beforeAll(async () => {
    nats = new NatsConnectionService({ serviceName: 'calls', url: NATS_URL, subjectPrefix: prefix });
    await nats.onModuleInit();
    // What a voice replica beats into (ReplicaHeartbeat), on the same bucket. A bucket younger than the lapse
    // tells no death (see HeartbeatBucket): the specs move the reaper's clock past the lapse rather than wait it out.
    heartbeats = new HeartbeatBucket(nats, VoiceReplicaHeartbeat);
    bucketNew = new Date();
    await heartbeats.beat(randomUUID());
    clock = new ManualClock(bucketOld());
    db = await createTestDatabase(SERVER_URL, 'vap_calls_voice_reaper');
    const config = Object.assign(new CallsConfig(), { DATABASE_URL: db.url });
    await runMigrations(callsDataSourceOptions(config));
    dataSource = await new DataSource(callsDataSourceOptions(config)).initialize();
    const carriers = {
      get: () => ({
        hangup: async (call: { id: string }, reason: string) => {
          if (failHangups) throw new Error('carrier unreachable');
          hangups.push({ callId: call.id, reason });
        },
      }),
    } as unknown as CarrierRegistry;
    const progress = new CallProgressService(dataSource, new OutboxService(), config);
    reaper = new LostVoiceReplicaReaper(
      dataSource,
      config,
      nats,
      new CallTransports(carriers, [new BrowserTransport(dataSource, config, progress)]),
      progress,
      clock,
    );
  }, 40_000);

  afterEach(async () => {
    clock.set(bucketOld());
    // Each test's calls are over, so that no later sweep looks at them.
    await dataSource.query(
      `UPDATE calls.call_sessions SET media_stream = 'ended' WHERE media_stream = 'live'`,
    );
    hangups.length = 0;
    failHangups = false;
  });

  afterAll(async () => {
    await nats?.onApplicationShutdown();
    await deleteJetStreamByPrefix(NATS_URL, prefix).catch(() => undefined);
    await dataSource?.destroy();
    await db?.drop();
  });

  /** A carrier_b call answered `secondsAgo` ago whose media stream `replicaId` serves, with a line said. */
  async function liveCall(replicaId: string, secondsAgo = 42): Promise<string> {
    const partnerId = randomUUID();
    const call = await saveCall(
      dataSource,
      {
        partnerId,
        connectionId: await saveConnection(dataSource, partnerId, 'carrier_b'),
        provider: 'carrier_b',
        startedAt: new Date(Date.now() - secondsAgo * 1000),
      },
      { mediaStream: 'live', voiceReplicaId: replicaId },
    );
    await dataSource.query(`UPDATE calls.call_sessions SET transcript = $2::jsonb WHERE call_id = $1`, [
      call.id,
      JSON.stringify([{ role: 'bot', content: 'Hello, this is Maya.', timestamp: new Date().toISOString() }]),
    ]);
    return call.id;
  }

  const callRow = async (id: string) =>
    (
      (await dataSource.query(
        `SELECT c.status, c.end_call_reason, c.hangup_cause, c.hangup_source, c.bill_duration_seconds,
                s.media_stream, s.transcript, j.status AS job_status, j.run_after <= now() AS job_due
           FROM calls.calls c JOIN calls.call_sessions s ON s.call_id = c.id
           LEFT JOIN calls.post_call_jobs j ON j.call_id = c.id
          WHERE c.id = $1`,
        [id],
      )) as Record<string, unknown>[]
    )[0];

  it('leaves the calls of a replica that beats, and ends those of one that signed off or never beat', async () => {
    const beating = randomUUID();
    const signedOff = randomUUID();
    const neverSeen = randomUUID();
    await heartbeats.beat(beating);
    await heartbeats.beat(signedOff);
    await heartbeats.remove(signedOff);
    const kept = await liveCall(beating);
    const lostA = await liveCall(signedOff, 42);
    const lostB = await liveCall(neverSeen, 7);

    expect(await reaper.reap()).toBe(2);

    expect(hangups.sort((a, b) => a.callId.localeCompare(b.callId))).toEqual(
      [lostA, lostB].sort().map((callId) => ({ callId, reason: 'voice_replica_lost' })),
    );
    expect(await callRow(kept)).toMatchObject({
      status: 'in_progress',
      end_call_reason: null,
      media_stream: 'live',
    });
    for (const [id, seconds] of [
      [lostA, 42],
      [lostB, 7],
    ] as const) {
      const row = await callRow(id);
      expect(row).toMatchObject({
        status: 'completed',
        end_call_reason: 'voice_replica_lost',
        hangup_cause: 'VOICE_REPLICA_LOST',
        hangup_source: 'system',
        // No end-of-stream report will come: post-call processing runs now, with the transcript so far.
        media_stream: 'ended',
        transcript: [expect.objectContaining({ role: 'bot', content: 'Hello, this is Maya.' })],
        job_status: 'queued',
        job_due: true,
      });
      // Billed for the time it was answered.
      expect(row.bill_duration_seconds).toBeGreaterThanOrEqual(seconds);
      expect(row.bill_duration_seconds).toBeLessThanOrEqual(seconds + 5);
    }

    // Once: the next sweeps find nothing more to end.
    expect(await reaper.reap()).toBe(0);
    expect(hangups).toHaveLength(2);
  });

  it('ends nothing while the heartbeat bucket is younger than the lapse, since a replica may not have beaten yet', async () => {
    const id = await liveCall(randomUUID());
    clock.set(bucketNew);
    expect(await reaper.reap()).toBe(0);
    expect(hangups).toEqual([]);
    expect(await callRow(id)).toMatchObject({ status: 'in_progress', media_stream: 'live' });
    clock.set(bucketOld());
    expect(await reaper.reap()).toBe(1);
  });

  it('two replicas sweeping at once end the call once', async () => {
    const gone = randomUUID();
    const id = await liveCall(gone);
    // Two calls replicas sweeping at once: one of them ends the call.
    const [a, b] = await Promise.all([reaper.reap(), reaper.reap()]);
    expect(a + b).toBe(1);
    expect(hangups).toEqual([{ callId: id, reason: 'voice_replica_lost' }]);
  });

  it('a failed hang-up keeps the call live for another try, and the next claim ends it regardless', async () => {
    const gone = randomUUID();
    const id = await liveCall(gone);
    failHangups = true;
    expect(await reaper.reap()).toBe(0);
    expect(await callRow(id)).toMatchObject({ status: 'in_progress', media_stream: 'live' });
    // Claimed a moment ago: the next sweeps leave it until the retry is due.
    expect(await reaper.reap()).toBe(0);
    await dataSource.query(
      `UPDATE calls.calls SET end_requested_at = now() - interval '11 seconds' WHERE id = $1`,
      [id],
    );
    expect(await reaper.reap()).toBe(1);
    expect(await callRow(id)).toMatchObject({ status: 'completed', end_call_reason: 'voice_replica_lost' });
  });

  it('does not touch a call whose stream ended or that is over', async () => {
    const gone = randomUUID();
    const ended = await liveCall(gone);
    await dataSource.query(`UPDATE calls.call_sessions SET media_stream = 'ended' WHERE call_id = $1`, [
      ended,
    ]);
    const over = await liveCall(gone);
    await dataSource.query(`UPDATE calls.calls SET status = 'completed' WHERE id = $1`, [over]);
    expect(await reaper.reap()).toBe(0);
    expect(hangups).toEqual([]);
  });
});
