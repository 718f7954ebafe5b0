// The lost voice replica check in the running calls module: a stream is claimed by a voice replica the way the
// voice service claims it (calls.voice.attach), and the replica beats into the heartbeat bucket as the voice
// service does. A replica that beats keeps its calls; the live calls of one that signed off are hung up at the
// carrier (the fake sandbox carrier) and ended through the progress path, completed and billed for the time they
// ran, with call.status_updated published.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { CallStatusUpdatedData, DomainEvents, VoiceReplicaHeartbeat } from '@vap/messages';
import { HeartbeatBucket, NatsConnectionService } from '@vap/messaging';
import { waitFor } from '@vap/testing';
import { carrierBSignature } from '../../../carriers/carrier-b/carrier-b-signature';
import { FakeSandboxCarrier, SANDBOX_TOKEN } from '../../../testing/fake-sandbox-carrier';
import { saveSandboxCall, useCallsOnSandbox, storedCall } from '../../../testing/sandbox-calls';
import { LostVoiceReplicaReaper } from './lost-voice-replica-reaper.service';

jest.setTimeout(20_000);

describe('reap a lost voice replica', () => {
  let dataSource: DataSource;
  let voiceNats: NatsConnectionService;
  let heartbeats: HeartbeatBucket;
  const carrier = new FakeSandboxCarrier();

  // The spec runs the check itself (it also runs once at start).
  const calls = useCallsOnSandbox(
    carrier,
    { env: { VOICE_REPLICA_CHECK_MS: '60000' } },
    { beforeStop: () => voiceNats?.onApplicationShutdown() },
  );

  beforeAll(async () => {
    dataSource = calls.get(DataSource);
    // The stream's end follows; a voice session the replica no longer holds is nothing to stop.
    calls.peers.answer('voice.session.terminate', () => ({ terminated: false }));
    voiceNats = new NatsConnectionService({
      serviceName: 'voice',
      url: process.env.NATS_URL || 'nats://127.0.0.1:4222',
      subjectPrefix: calls.prefix,
    });
    await voiceNats.onModuleInit();
    heartbeats = new HeartbeatBucket(voiceNats, VoiceReplicaHeartbeat);
    // A heartbeat bucket younger than the lapse tells no replica dead (HeartbeatBucket): the app's clock, which
    // the check reads the bucket's age on, is moved past the lapse from the bucket made when the app started.
    calls.clock.set(new Date(Date.now() + VoiceReplicaHeartbeat.lapseMs + 1000));
  });

  /** A call answered `secondsAgo` ago whose stream `replicaId` attached. */
  async function streamingOn(replicaId: string, secondsAgo: number): Promise<string> {
    const call = await saveSandboxCall(dataSource, { startedAt: new Date(Date.now() - secondsAgo * 1000) });
    const url = `wss://media.example/stream/${call.id}`;
    await calls.send('calls.voice.attach', null, {
      callId: call.id,
      carrier: 'sandbox',
      nonce: randomUUID(),
      url,
      headers: { 'x-twilio-signature': carrierBSignature(SANDBOX_TOKEN, url, new Map()) },
      replicaId,
    });
    return call.id;
  }

  const rowOf = async (id: string) =>
    (
      (await dataSource.query(
        `SELECT c.status, c.end_call_reason, c.hangup_cause, c.bill_duration_seconds, s.media_stream
           FROM calls.calls c JOIN calls.call_sessions s ON s.call_id = c.id WHERE c.id = $1`,
        [id],
      )) as Record<string, unknown>[]
    )[0];

  it('leaves the calls of a replica that beats', async () => {
    const replica = randomUUID();
    await heartbeats.beat(replica);
    const id = await streamingOn(replica, 5);

    expect(await calls.get(LostVoiceReplicaReaper).reap()).toBe(0);

    expect(await rowOf(id)).toMatchObject({ status: 'in_progress', media_stream: 'live' });
    expect(carrier.onCall((await storedCall(dataSource, id)).call.providerCallId!)).toEqual([]);
    // The stream closes as the voice service reports it, so the replica's beats may lapse in the next test.
    await calls.send('calls.voice.ended', null, {
      callId: id,
      endCallReason: null,
      mediaSeconds: 5,
      recording: null,
    });
  });

  it('hangs up and ends the live calls of a replica that signed off, billed for the time they ran', async () => {
    const replica = randomUUID();
    const beating = randomUUID();
    await heartbeats.beat(replica);
    await heartbeats.beat(beating);
    const lost = await streamingOn(replica, 42);
    const kept = await streamingOn(beating, 42);
    await heartbeats.remove(replica);

    const reaper = calls.get(LostVoiceReplicaReaper);
    await waitFor(
      async () => {
        // The beating replica goes on beating, as a voice replica does every VoiceReplicaHeartbeat.intervalMs.
        await heartbeats.beat(beating);
        await reaper.reap();
        return (await rowOf(lost)).status === 'completed';
      },
      {
        timeoutMs: VoiceReplicaHeartbeat.lapseMs + 5000,
        intervalMs: 250,
        description: 'the signed-off replica’s call ended',
      },
    );

    const sid = (await storedCall(dataSource, lost)).call.providerCallId!;
    expect(carrier.onCall(sid).map((r) => r.form.get('Status'))).toEqual(['completed']);
    const row = await rowOf(lost);
    expect(row).toMatchObject({
      status: 'completed',
      end_call_reason: 'voice_replica_lost',
      hangup_cause: 'VOICE_REPLICA_LOST',
      media_stream: 'ended',
    });
    expect(row.bill_duration_seconds).toBeGreaterThanOrEqual(42);
    const ended = await calls.waitForEvent<CallStatusUpdatedData>(
      DomainEvents.callStatusUpdated,
      (e) => e.data.call_id === lost && e.data.terminal === true,
    );
    expect(ended.data).toMatchObject({
      status: 'completed',
      hangup_cause: 'VOICE_REPLICA_LOST',
      provider_event: 'voice-replica-lost',
      concurrency_released: true,
    });
    expect(await rowOf(kept)).toMatchObject({ status: 'in_progress', media_stream: 'live' });
    // Once: the next check finds nothing more to end.
    expect(await reaper.reap()).toBe(0);
  });
});
