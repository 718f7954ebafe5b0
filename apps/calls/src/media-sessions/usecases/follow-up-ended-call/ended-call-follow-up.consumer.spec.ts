// What follows a call's end, against a real Postgres with the calls migrations and real NATS: the call is ended
// through CallProgressService (the one path every end takes), and the call.status_updated event it recorded in
// the outbox is handed to the consumer. The voice replica is served by the messaging lib's
// AddressedCommandServer, as the voice service serves it; the carrier is a recorder.
import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import {
  AddressedSubjects,
  CallStatusUpdatedData,
  DomainEvent,
  DomainEvents,
  VoiceSessionTerminateRequest,
} from '@vap/messages';
import {
  AddressedCommandServer,
  AddressedServing,
  NatsConnectionService,
  OutboxService,
  RpcClient,
} from '@vap/messaging';
import { runMigrations } from '@vap/persistence';
import { SystemClock } from '@vap/runtime';
import { createTestDatabase, TestDatabase } from '@vap/testing';
import { RawCarrierEvent } from '../../../progress/raw-carrier-event';
import { CarrierRegistry } from '../../../carriers/carrier-registry';
import { CallsConfig } from '../../../config/calls.config';
import { callsDataSourceOptions } from '../../../database/data-source';
import { CallProgressService } from '../../../progress/call-progress.service';
import { StaleCallSweeper } from '../../../progress/usecases/sweep-stale-calls/stale-call-sweeper.service';
import { saveCall, saveConnection } from '../../../testing/call-rows';
import { LIVE_SESSION_ASK_TIMEOUT_MS } from '../../../calls/live-session-ask';
import { CallbackUrls } from '../../../carriers/callback-urls';
import { TransferLegs } from '../../../carriers/transfer-legs/transfer-legs.service';
import { EndedCallFollowUp } from './ended-call-follow-up.consumer';

jest.setTimeout(30_000);

const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const NATS_URL = process.env.NATS_URL || 'nats://127.0.0.1:4222';

describe('EndedCallFollowUp: an ended call stops its voice session, a stale one is hung up at the carrier', () => {
  const prefix = `ended_${randomBytes(4).toString('hex')}`;
  let db: TestDatabase;
  let dataSource: DataSource;
  let config: CallsConfig;
  let callsNats: NatsConnectionService;
  let voiceNats: NatsConnectionService;
  let voice: AddressedCommandServer;
  let progress: CallProgressService;
  let followUp: EndedCallFollowUp;
  const hangups: { callId: string; reason: string }[] = [];
  const terminations: VoiceSessionTerminateRequest[] = [];
  const serving: AddressedServing[] = [];

  beforeAll(async () => {
    db = await createTestDatabase(SERVER_URL, 'vap_calls_ended_follow_up');
    config = Object.assign(new CallsConfig(), {
      DATABASE_URL: db.url,
      STALE_CALL_GRACE_SECS: 0,
      STALE_CALL_UNCAPPED_SECS: 5,
    });
    await runMigrations(callsDataSourceOptions(config));
    dataSource = await new DataSource(callsDataSourceOptions(config)).initialize();
    const options = { serviceName: 'calls', url: NATS_URL, subjectPrefix: prefix };
    callsNats = new NatsConnectionService(options);
    voiceNats = new NatsConnectionService({ ...options, serviceName: 'voice' });
    await callsNats.onModuleInit();
    await voiceNats.onModuleInit();
    voice = new AddressedCommandServer(voiceNats);
    const carriers = {
      get: () => ({
        hangup: async (call: { id: string }, reason: string) =>
          void hangups.push({ callId: call.id, reason }),
        hangupLeg: async (call: { id: string }, leg: string) =>
          void hangups.push({ callId: call.id, reason: `leg:${leg}` }),
      }),
    } as unknown as CarrierRegistry;
    progress = new CallProgressService(dataSource, new OutboxService(), config);
    const rpc = new RpcClient(callsNats, options);
    const legs = new TransferLegs(
      dataSource,
      carriers,
      { forCall: () => () => 'https://callbacks.example.test' } as unknown as CallbackUrls,
      new OutboxService(),
      rpc,
    );
    followUp = new EndedCallFollowUp(rpc, carriers, legs);
  });

  afterEach(async () => {
    await Promise.all(serving.splice(0).map((s) => s.close()));
    hangups.length = 0;
    terminations.length = 0;
  });

  afterAll(async () => {
    await callsNats?.onApplicationShutdown();
    await voiceNats?.onApplicationShutdown();
    await dataSource?.destroy();
    await db?.drop();
  });

  /** A carrier_b call answered `answeredSecsAgo` ago, its media stream as given. */
  async function liveCall(mediaStream: 'live' | 'ended' | null, answeredSecsAgo = 30): Promise<string> {
    const partnerId = randomUUID();
    const connectionId = await saveConnection(dataSource, partnerId, 'carrier_b');
    const call = await saveCall(
      dataSource,
      {
        partnerId,
        connectionId,
        provider: 'carrier_b',
        startedAt: new Date(Date.now() - answeredSecsAgo * 1000),
      },
      { mediaStream },
    );
    // Placed before it was answered (what the stale sweeper measures from).
    await dataSource.query(
      `UPDATE calls.calls SET created_at = now() - make_interval(secs => $2) WHERE id = $1`,
      [call.id, answeredSecsAgo + 5],
    );
    return call.id;
  }

  /** A voice replica holding the call's session; it answers after `delayMs`. */
  async function replicaHolding(callId: string, delayMs = 0): Promise<void> {
    serving.push(
      voice.serve(AddressedSubjects.voice.sessionTerminate, callId, async (data) => {
        terminations.push(data);
        if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
        return { terminated: true };
      }),
    );
    await voiceNats.nc.flush();
  }

  /** The carrier's signed final status, as the callback path applies it. */
  const completed = (callId: string) => {
    const event: RawCarrierEvent = {
      provider: 'carrier_b',
      kind: 'status',
      dedupeKey: `completed-${callId}`,
      providerStatus: 'completed',
      providerEvent: null,
      sequence: 9,
      ended: true,
      occurredAt: new Date(),
      durationSeconds: 30,
    };
    return progress.apply({ callId }, event);
  };

  /** The terminal call.status_updated the end recorded, handed to the consumer as JetStream would. */
  async function deliverEnd(callId: string): Promise<void> {
    const [row] = (await dataSource.query(
      `SELECT event FROM calls.outbox WHERE subject = $1 AND event->'data'->>'call_id' = $2
        ORDER BY created_at DESC LIMIT 1`,
      [DomainEvents.callStatusUpdated, callId],
    )) as { event: DomainEvent<CallStatusUpdatedData> }[];
    expect(row.event.data.terminal).toBe(true);
    await dataSource.transaction((em) => followUp.onEnded(row.event, em));
  }

  it("a carrier's final status: the replica holding the live session is told to terminate it; no hang-up", async () => {
    const id = await liveCall('live');
    await replicaHolding(id);
    expect((await completed(id)).status).toBe('completed');
    await deliverEnd(id);
    expect(terminations).toEqual([{ callId: id }]);
    expect(hangups).toEqual([]);
  });

  it("the caller hangs up on hold: the human's ringing leg of the warm transfer is hung up and the transfer fails", async () => {
    const id = await liveCall('live');
    const consultId = randomUUID();
    const human = {
      role: 'human',
      carrier_call_id: 'CAhuman',
      from_number: '+14155550100',
      to_number: '+919811112222',
      status: 'ringing',
      started_at: new Date().toISOString(),
      answered_at: null,
      ended_at: null,
    };
    const transfer = {
      transfer_type: 'warm',
      to_number: '+919811112222',
      reason: 'agent_transfer',
      outcome: null,
      requested_at: new Date().toISOString(),
      answered_at: null,
      bridged_at: null,
      legs: [{ ...human, role: 'caller', carrier_call_id: 'CAcaller', status: 'answered' }, human],
    };
    await dataSource.query(
      `UPDATE calls.calls SET transfer = $2, transfer_consult_id = $3, transfer_briefing = 'b' WHERE id = $1`,
      [id, JSON.stringify(transfer), consultId],
    );
    await replicaHolding(id);
    await completed(id);
    await deliverEnd(id);
    expect(hangups).toEqual([{ callId: id, reason: 'leg:CAhuman' }]);
    const [row] = (await dataSource.query(`SELECT transfer FROM calls.calls WHERE id = $1`, [id])) as {
      transfer: { outcome: string; legs: { role: string; status: string; ended_at: string | null }[] };
    }[];
    expect(row.transfer.outcome).toBe('failed');
    expect(row.transfer.legs[1]).toMatchObject({
      role: 'human',
      status: 'failed',
      ended_at: expect.any(String),
    });
    // call.transferred says how it ended, once: a redelivered end changes nothing.
    await deliverEnd(id);
    expect(hangups).toHaveLength(1);
    const events = (await dataSource.query(
      `SELECT event FROM calls.outbox WHERE subject = $1 AND event->'data'->>'call_id' = $2`,
      [DomainEvents.callTransferred, id],
    )) as { event: { data: { outcome: string; transfer_type: string } } }[];
    expect(events.map((e) => e.event.data)).toEqual([
      expect.objectContaining({ outcome: 'failed', transfer_type: 'warm' }),
    ]);
  });

  it('a live session no replica holds (it ended meanwhile) is nothing to stop; a stream not live is not asked', async () => {
    const orphan = await liveCall('live');
    await completed(orphan);
    await expect(deliverEnd(orphan)).resolves.toBeUndefined();
    const ended = await liveCall('ended');
    await replicaHolding(ended);
    await completed(ended);
    await deliverEnd(ended);
    expect(terminations).toEqual([]);
  });

  it('a replica that does not answer in time fails the delivery, so the event comes back', async () => {
    const id = await liveCall('live');
    await replicaHolding(id, LIVE_SESSION_ASK_TIMEOUT_MS + 500);
    await completed(id);
    await expect(deliverEnd(id)).rejects.toThrow(/did not answer in time/);
    expect(terminations).toEqual([{ callId: id }]);
  });

  it('the stale sweeper: the call fails billed for its answered time, is hung up at the carrier and its session stopped', async () => {
    const id = await liveCall('live', 40);
    await replicaHolding(id);
    const sweeper = new StaleCallSweeper(dataSource, config, progress, new SystemClock());
    expect(await sweeper.sweep()).toBeGreaterThanOrEqual(1);
    const [call] = (await dataSource.query(
      `SELECT status, hangup_cause, bill_duration_seconds FROM calls.calls WHERE id = $1`,
      [id],
    )) as { status: string; hangup_cause: string; bill_duration_seconds: number }[];
    expect(call).toMatchObject({ status: 'failed', hangup_cause: 'NO_FINAL_STATUS' });
    expect(call.bill_duration_seconds).toBeGreaterThanOrEqual(40);
    await deliverEnd(id);
    expect(hangups).toEqual([{ callId: id, reason: 'stale_call_timeout' }]);
    expect(terminations).toEqual([{ callId: id }]);
  });
});
