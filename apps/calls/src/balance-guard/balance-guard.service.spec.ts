// How the balance guard ends an overdrawn call, against a real Postgres with the calls migrations and real
// NATS: a call with a live media stream is handed to the voice replica holding it (the agent's farewell),
// anything else, or a retry, goes to the carrier. The carrier is a recorder; the voice replica is served by
// the messaging lib's AddressedCommandServer, as the voice service serves it.
import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AddressedSubjects, VoiceSessionEndReply, VoiceSessionEndRequest } from '@vap/messages';
import {
  AddressedCommandServer,
  AddressedServing,
  NatsConnectionService,
  OutboxService,
  RpcClient,
} from '@vap/messaging';
import { runMigrations } from '@vap/persistence';
import { createTestDatabase, TestDatabase } from '@vap/testing';
import { BrowserTransport } from '../carriers/browser/browser-transport';
import { CallTransports } from '../carriers/call-transport';
import { CarrierRegistry } from '../carriers/carrier-registry';
import { CallsConfig } from '../config/calls.config';
import { callsDataSourceOptions } from '../database/data-source';
import { PartnerBalances } from '../partners/partner-balances';
import { CallProgressService } from '../progress/call-progress.service';
import { saveCall, saveConnection } from '../testing/call-rows';
import { LIVE_SESSION_ASK_TIMEOUT_MS } from '../calls/live-session-ask';
import { BalanceGuard } from './balance-guard.service';

jest.setTimeout(30_000);

const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const NATS_URL = process.env.NATS_URL || 'nats://127.0.0.1:4222';

describe('BalanceGuard: farewell through the voice replica, else the carrier', () => {
  const prefix = `guard_${randomBytes(4).toString('hex')}`;
  let db: TestDatabase;
  let dataSource: DataSource;
  let callsNats: NatsConnectionService;
  let voiceNats: NatsConnectionService;
  let voice: AddressedCommandServer;
  let guard: BalanceGuard;
  const hangups: { callId: string; reason: string }[] = [];
  const farewells: VoiceSessionEndRequest[] = [];
  const serving: AddressedServing[] = [];
  const created: string[] = [];

  beforeAll(async () => {
    db = await createTestDatabase(SERVER_URL, 'vap_calls_balance_guard');
    const config = Object.assign(new CallsConfig(), { DATABASE_URL: db.url });
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
      }),
    } as unknown as CarrierRegistry;
    const progress = new CallProgressService(dataSource, new OutboxService(), config);
    guard = new BalanceGuard(
      dataSource,
      config,
      new CallTransports(carriers, [new BrowserTransport(dataSource, config, progress)]),
      new PartnerBalances(dataSource),
      new RpcClient(callsNats, options),
    );
  });

  afterEach(async () => {
    await Promise.all(serving.splice(0).map((s) => s.close()));
    // Each test's call is over, so that no later sweep retries it.
    await dataSource.query(`UPDATE calls.calls SET status = 'completed' WHERE id = ANY($1::uuid[])`, [
      created.splice(0),
    ]);
    hangups.length = 0;
    farewells.length = 0;
  });

  afterAll(async () => {
    await callsNats?.onApplicationShutdown();
    await voiceNats?.onApplicationShutdown();
    await dataSource?.destroy();
    await db?.drop();
  });

  /** An in-progress call answered a minute ago of a partner with nothing left, its stream as given. */
  async function overdrawnCall(mediaStream: 'live' | 'ended' | null): Promise<string> {
    const partnerId = randomUUID();
    const connectionId = await saveConnection(dataSource, partnerId, 'carrier_b');
    await dataSource.query(
      `INSERT INTO calls.partner_balances (partner_id, balance_paise, as_of) VALUES ($1, 0, now())`,
      [partnerId],
    );
    const call = await saveCall(
      dataSource,
      { partnerId, connectionId, provider: 'carrier_b', startedAt: new Date(Date.now() - 60_000) },
      { mediaStream },
    );
    created.push(call.id);
    return call.id;
  }

  /** A voice replica holding the call's session, answering with `reply` after `delayMs`. */
  async function replicaHolding(callId: string, reply: VoiceSessionEndReply, delayMs = 0): Promise<void> {
    serving.push(
      voice.serve(AddressedSubjects.voice.sessionEnd, callId, async (data) => {
        farewells.push(data);
        if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
        return reply;
      }),
    );
    await voiceNats.nc.flush();
  }

  const requested = async (callId: string) =>
    (
      (await dataSource.query(
        `SELECT end_requested_at, end_requested_reason FROM calls.calls WHERE id = $1`,
        [callId],
      )) as { end_requested_at: Date | null; end_requested_reason: string | null }[]
    )[0];

  /** As if the first ask was made longer ago than the retry interval and the call is still in progress. */
  const ageTheAsk = (callId: string) =>
    dataSource.query(
      `UPDATE calls.calls SET end_requested_at = now() - interval '11 seconds' WHERE id = $1`,
      [callId],
    );

  it('a live stream: the replica holding it takes the farewell, and the carrier is not asked', async () => {
    const id = await overdrawnCall('live');
    await replicaHolding(id, { accepted: true });
    await guard.sweep();
    expect(farewells).toEqual([{ callId: id, reason: 'insufficient_balance' }]);
    expect(hangups).toEqual([]);
    expect(await requested(id)).toMatchObject({ end_requested_reason: 'insufficient_balance' });
    expect((await requested(id)).end_requested_at).not.toBeNull();

    // Claimed a moment ago: the next sweeps leave it to the farewell.
    await guard.sweep();
    expect(farewells).toHaveLength(1);
    expect(hangups).toEqual([]);
  });

  it('a retry goes straight to the carrier, even with the replica still there', async () => {
    const id = await overdrawnCall('live');
    await replicaHolding(id, { accepted: true });
    await guard.sweep();
    expect(farewells).toHaveLength(1);

    await ageTheAsk(id);
    await guard.sweep();
    expect(farewells).toHaveLength(1);
    expect(hangups).toEqual([{ callId: id, reason: 'insufficient_balance' }]);
  });

  it('a session ending by itself already: its own hang-up is on the way, the carrier is not asked', async () => {
    const id = await overdrawnCall('live');
    await replicaHolding(id, { accepted: false });
    await guard.sweep();
    expect(farewells).toHaveLength(1);
    expect(hangups).toEqual([]);
  });

  it('a live stream no replica holds: the carrier hangs up at once', async () => {
    const id = await overdrawnCall('live');
    const started = Date.now();
    await guard.sweep();
    expect(Date.now() - started).toBeLessThan(LIVE_SESSION_ASK_TIMEOUT_MS);
    expect(hangups).toEqual([{ callId: id, reason: 'insufficient_balance' }]);
  });

  it('a replica that does not answer in time: the carrier hangs up after the bound', async () => {
    const id = await overdrawnCall('live');
    await replicaHolding(id, { accepted: true }, LIVE_SESSION_ASK_TIMEOUT_MS + 1000);
    const started = Date.now();
    await guard.sweep();
    expect(Date.now() - started).toBeGreaterThanOrEqual(LIVE_SESSION_ASK_TIMEOUT_MS - 50);
    expect(farewells).toHaveLength(1);
    expect(hangups).toEqual([{ callId: id, reason: 'insufficient_balance' }]);
  });

  it.each(['ended', null] as const)(
    'a stream that is %s: the carrier, without asking any replica',
    async (stream) => {
      const id = await overdrawnCall(stream);
      await replicaHolding(id, { accepted: true });
      await guard.sweep();
      expect(farewells).toEqual([]);
      expect(hangups).toEqual([{ callId: id, reason: 'insufficient_balance' }]);
    },
  );

  it('a browser session no replica holds: ended at once with its charge, no carrier asked', async () => {
    const partnerId = randomUUID();
    await dataSource.query(
      `INSERT INTO calls.partner_balances (partner_id, balance_paise, as_of) VALUES ($1, 0, now())`,
      [partnerId],
    );
    const call = await saveCall(
      dataSource,
      {
        partnerId,
        connectionId: null,
        provider: 'browser',
        kind: 'browser',
        providerCallId: null,
        startedAt: new Date(Date.now() - 60_000),
      },
      { mediaStream: 'live' },
    );
    created.push(call.id);
    await guard.sweep();
    expect(hangups).toEqual([]);
    const [ended] = (await dataSource.query(
      `SELECT status, end_call_reason, bill_duration_seconds FROM calls.calls WHERE id = $1`,
      [call.id],
    )) as { status: string; end_call_reason: string; bill_duration_seconds: number }[];
    expect(ended).toMatchObject({ status: 'completed', end_call_reason: 'insufficient_balance' });
    expect(ended.bill_duration_seconds).toBeGreaterThanOrEqual(60);
    const charges = (await dataSource.query(
      `SELECT count(*)::int AS n FROM calls.call_charges WHERE call_id = $1`,
      [call.id],
    )) as { n: number }[];
    expect(charges[0].n).toBe(1);
  });
});
