// The calls.voice.* commands end to end inside the calls service: over real NATS (RpcClient to the handlers),
// against a real Postgres with the calls migrations, with carrier_a and carrier_b adapters talking to a fake
// carrier REST server. Only the sandbox carrier is a stand-in (its simulated phone is not under test here).
import { DynamicModule, INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import {
  AgentSnapshot,
  CallProvider,
  CallStatus,
  AddressedSubjects,
  DomainEvents,
  ErrorCode,
  SPEECH_PROVIDERS,
  STREAM_TAKEN_DETAIL,
  Subjects,
  TOOL_CALL_MAX_ARGUMENT_BYTES,
  TOOL_CALLS_PER_CALL_MAX,
  ToolCallEntry,
  TranscriptEntry,
  TurnLatency,
  VoiceCarrier,
  VoiceToolCallRequest,
} from '@vap/messages';
import { MediaStreamCarrier, verifyStreamToken } from '@vap/media';
import {
  AddressedCommandServer,
  MessagingModule,
  NatsConnectionService,
  NatsRpcServer,
  RpcClient,
} from '@vap/messaging';
import { runMigrations, tableOf } from '@vap/persistence';
import { mediaStreamTokenKey, SecretBox } from '@vap/secrets';
import { createTestDatabase, deleteJetStreamByPrefix, TestDatabase, waitFor } from '@vap/testing';
import { BrowserTransport } from '../carriers/browser/browser-transport';
import { CallTransports, DIRECT_TRANSPORTS } from '../carriers/call-transport';
import { CallProgressService } from '../progress/call-progress.service';
import { toCallDto } from '../calls/call-dto';
import { Call } from '../calls/entities/call.entity';
import { CallSession } from '../calls/entities/call-session.entity';
import { CallbackUrls } from '../carriers/callback-urls';
import { CARRIER_ADAPTERS, CarrierAdapter } from '../carriers/carrier-adapter';
import { CarrierAAdapter } from '../carriers/carrier-a/carrier-a.adapter';
import { carrierASignature } from '../carriers/carrier-a/carrier-a-signature';
import { CarrierBAdapter } from '../carriers/carrier-b/carrier-b.adapter';
import { carrierBSignature } from '../carriers/carrier-b/carrier-b-signature';
import { CarrierHttp } from '../carriers/carrier-http';
import { CarrierRegistry } from '../carriers/carrier-registry';
import { CallsConfig } from '../config/calls.config';
import { TelephonyConfig } from '../config/telephony.config';
import { saveCall } from '../testing/call-rows';
import { Connection } from '../telephony/connections/entities/connection.entity';
import { callsDataSourceOptions } from '../database/data-source';
import { MediaStreamLinks } from '../carriers/media-stream-links';
import { recordingKey } from '../recording/recording-store';
import { CredentialsStore } from '../telephony/connections/credentials-store.service';
import { ConnectionCredentials } from '../telephony/connections/entities/connection-credentials.entity';
import { TranscriptService } from './transcript.service';
import { VOICE_COMMAND_USE_CASES } from './usecases';
import { VoiceHandlers } from './voice.handlers';
import { carrierCallOf } from '../carriers/carrier-call';
import { TransferLegs } from '../carriers/transfer-legs/transfer-legs.service';
import { DoNotCallService } from '../telephony/contact-policy/do-not-call.service';
import { CreateDoNotCallEntry } from '../telephony/contact-policy/usecases';
import { recordCallCharge } from '../charges/call-charges';
import {
  ListUnbilledCharges,
  VOICE_REPORT_WAIT_SECS,
} from '../charges/usecases/list-unbilled-charges/list-unbilled-charges.usecase';

jest.setTimeout(60_000);

const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const NATS_URL = process.env.NATS_URL || 'nats://127.0.0.1:4222';
const SECRETS_KEY = randomBytes(32);
const CARRIER_B = { account_sid: 'AC0123456789', auth_token: 'carrier-b-token' };
const CARRIER_A = { auth_id: 'MA0123456789', auth_token: 'carrier-a-token' };
const TRANSFER_TO = '+15550009999';

interface SeenRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  contentType: string | undefined;
  body: string;
}

/** A carrier REST API that records what it was asked and answers `status` (200 unless a test says so). */
class FakeCarrierApi {
  readonly seen: SeenRequest[] = [];
  status = 200;
  /** Awaited before the answer: what the carrier does while the platform waits for it. */
  beforeAnswer?: () => Promise<void>;
  private server!: Server;

  async start(): Promise<string> {
    this.server = createServer((req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        await this.beforeAnswer?.();
        this.seen.push({
          method: req.method ?? '',
          path: req.url ?? '',
          authorization: req.headers.authorization,
          contentType: req.headers['content-type'],
          body: Buffer.concat(chunks).toString('utf8'),
        });
        res.writeHead(this.status, { 'content-type': 'application/json' });
        // A placement (a warm transfer's human leg) answers its CallSid, as carrier_b does.
        const placedB = req.method === 'POST' && /\/Calls\.json$/.test(req.url ?? '');
        const placedA = req.method === 'POST' && /^\/v1\/Account\/[^/]+\/Call\/$/.test(req.url ?? '');
        const ok = placedB
          ? { sid: `CAhuman${this.seen.length}` }
          : placedA
            ? { request_uuid: `req-human-${this.seen.length}` }
            : { message: 'ok' };
        res.end(JSON.stringify(this.status === 200 ? ok : { error: 'refused' }));
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  take(): SeenRequest[] {
    return this.seen.splice(0);
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The simulated phone's carrier, reduced to what the voice commands ask of a carrier. */
const sandbox = {
  provider: 'sandbox' as const,
  hangups: [] as { callId: string; reason: string }[],
  transfers: [] as { callId: string; to: string }[],
  async placeCall() {
    return { providerCallId: 'unused' };
  },
  async parseCallback() {
    return { events: [] };
  },
  async hangup(call: { id: string }, reason: string) {
    sandbox.hangups.push({ callId: call.id, reason });
  },
  async transfer(call: { id: string }, to: string) {
    sandbox.transfers.push({ callId: call.id, to });
    return true;
  },
};

@Module({})
class VoiceCommandsTestModule {}

const agentSettings = {
  version: 3,
  introMessage: 'Hello from Acme',
  prompt: 'Be brief.',
  transferEnabled: true,
  transferNumber: TRANSFER_TO,
} as AgentSnapshot;

describe('calls.voice.* commands', () => {
  let db: TestDatabase;
  let api: FakeCarrierApi;
  let app: INestApplication;
  let rpc: RpcClient;
  let dataSource: DataSource;
  let links: MediaStreamLinks;
  const prefix = `t_${randomBytes(5).toString('hex')}`;
  const partnerId = randomUUID();
  const connections: Partial<Record<CallProvider, string>> = {};

  beforeAll(async () => {
    db = await createTestDatabase(SERVER_URL, 'vap_calls_voice_commands');
    api = new FakeCarrierApi();
    const carrierBase = await api.start();
    const config = Object.assign(new CallsConfig(), {
      DATABASE_URL: db.url,
      PUBLIC_BASE_URL: 'https://api.example.test',
      MEDIA_PUBLIC_URL: 'https://media.example.test',
      MEDIA_STREAM_TOKEN_TTL_MS: 60_000,
    });
    const telephony = Object.assign(new TelephonyConfig(), {
      SECRETS_KEY: SECRETS_KEY.toString('hex'),
      CARRIER_A_BASE_URL: carrierBase,
      CARRIER_B_BASE_URL: `${carrierBase}/`,
    });
    await runMigrations(callsDataSourceOptions(config));
    const module: DynamicModule = {
      module: VoiceCommandsTestModule,
      imports: [
        TypeOrmModule.forRoot({ ...callsDataSourceOptions(config), retryAttempts: 0 }),
        MessagingModule.forRoot({ serviceName: 'calls', url: NATS_URL, subjectPrefix: prefix }),
      ],
      controllers: [VoiceHandlers],
      providers: [
        { provide: CallsConfig, useValue: config },
        { provide: TelephonyConfig, useValue: telephony },
        { provide: SecretBox, useValue: new SecretBox(SECRETS_KEY) },
        CredentialsStore,
        CarrierHttp,
        CallbackUrls,
        MediaStreamLinks,
        CarrierAAdapter,
        CarrierBAdapter,
        {
          provide: CARRIER_ADAPTERS,
          inject: [CarrierAAdapter, CarrierBAdapter],
          useFactory: (...adapters: CarrierAdapter[]) => [...adapters, sandbox as unknown as CarrierAdapter],
        },
        CarrierRegistry,
        TransferLegs,
        TranscriptService,
        ...VOICE_COMMAND_USE_CASES,
        DoNotCallService,
        CreateDoNotCallEntry,
        CallProgressService,
        BrowserTransport,
        { provide: DIRECT_TRANSPORTS, inject: [BrowserTransport], useFactory: (b: BrowserTransport) => [b] },
        CallTransports,
      ],
    };
    app = await NestFactory.create(module, { logger: false, abortOnError: false });
    app.connectMicroservice({ strategy: new NatsRpcServer(app.get(NatsConnectionService)) });
    await app.init();
    await app.startAllMicroservices();
    rpc = app.get(RpcClient);
    dataSource = app.get(DataSource);
    links = app.get(MediaStreamLinks);

    const store = app.get(CredentialsStore);
    for (const [provider, creds] of [
      ['carrier_a', CARRIER_A],
      ['carrier_b', CARRIER_B],
      ['sandbox', null],
    ] as const) {
      const id = randomUUID();
      await dataSource.getRepository(Connection).insert({
        id,
        partnerId,
        provider,
        name: provider,
        status: 'active',
      });
      if (creds) {
        await dataSource.getRepository(ConnectionCredentials).insert({
          connectionId: id,
          partnerId,
          accountIdMasked: 'MA...89',
          sealed: store.seal(id, creds),
        });
      }
      connections[provider] = id;
    }
  });

  afterAll(async () => {
    await app?.close();
    await api?.stop();
    await db?.drop();
    await deleteJetStreamByPrefix(NATS_URL, prefix).catch(() => undefined);
  });

  /** A call on `provider` in `status`, answered a known time ago, with its session (and agent `settings`). */
  async function callOn(
    provider: CallProvider,
    status: CallStatus = 'in_progress',
    settings: Partial<AgentSnapshot> = {},
  ): Promise<Call> {
    return saveCall(dataSource, {
      partnerId,
      connectionId: connections[provider]!,
      provider,
      providerCallId: `${provider === 'carrier_b' ? 'CA' : 'req-'}${randomBytes(8).toString('hex')}`,
      carrierLegId: provider === 'carrier_a' ? `leg-${randomBytes(8).toString('hex')}` : null,
      status,
      variables: { name: 'Ada' },
      agentSettings: { ...agentSettings, ...settings },
      startedAt: new Date(Date.now() - 10_000),
      endedAt: status === 'completed' ? new Date() : null,
    });
  }

  /** What the voice service learns from a stream URL it accepted: the URL itself and the token's nonce. */
  function stream(carrier: MediaStreamCarrier, callId: string) {
    const url = links.streamUrl(carrier, callId);
    const token = new URL(url).searchParams.get('token')!;
    const verified = verifyStreamToken(token, mediaStreamTokenKey(SECRETS_KEY), Date.now());
    if (!verified.ok) throw new Error(`token does not verify: ${verified.reason}`);
    return { url, nonce: verified.claims.nonce };
  }

  const VOICE_REPLICA: string = randomUUID();

  const attach = (
    carrier: VoiceCarrier,
    callId: string,
    s: { url: string; nonce: string },
    headers: Record<string, string>,
    replicaId: string = VOICE_REPLICA,
  ) => rpc.request(Subjects.calls.voiceAttach, null, { callId, carrier, ...s, headers, replicaId });

  const carrierBHeaders = (url: string, token = CARRIER_B.auth_token) => ({
    'X-Twilio-Signature': carrierBSignature(token, url, new Map()),
  });

  const carrierAHeaders = (url: string) => {
    const nonce = randomBytes(8).toString('hex');
    return {
      'x-plivo-signature-v3': carrierASignature(CARRIER_A.auth_token, 'GET', url, new Map(), nonce),
      'x-plivo-signature-v3-nonce': nonce,
    };
  };

  const sessionOf = (callId: string) => dataSource.getRepository(CallSession).findOneByOrFail({ callId });
  const callOf = (callId: string) => dataSource.getRepository(Call).findOneByOrFail({ id: callId });

  describe('calls.voice.attach', () => {
    it('answers the call context to a carrier_b stream signed by the carrier, and refuses its replay', async () => {
      const call = await callOn('carrier_b');
      const s = stream('carrier_b', call.id);
      await expect(attach('carrier_b', call.id, s, carrierBHeaders(s.url))).resolves.toEqual({
        callId: call.id,
        partnerId,
        agentId: call.agentId,
        sessionId: call.sessionId,
        direction: 'outbound',
        fromNumber: '+15550000001',
        toNumber: '+15550000002',
        provider: 'carrier_b',
        variables: { name: 'Ada' },
        customerId: null,
        answeredBy: 'human',
        agent: agentSettings,
      });
      // Post-call processing now waits for the voice service's end-of-stream report, and the replica serving
      // the stream is known, so that the call ends should it die.
      expect(await sessionOf(call.id)).toMatchObject({ mediaStream: 'live', voiceReplicaId: VOICE_REPLICA });
      await expect(attach('carrier_b', call.id, s, carrierBHeaders(s.url))).rejects.toMatchObject({
        code: ErrorCode.CONFLICT,
      });
    });

    it("answers a retry of the same upgrade's attach again (its answer was lost), but no other use of the token", async () => {
      const call = await callOn('carrier_b');
      const s = stream('carrier_b', call.id);
      const headers = carrierBHeaders(s.url);
      const first = await rpc.request(Subjects.calls.voiceAttach, null, {
        callId: call.id,
        carrier: 'carrier_b',
        ...s,
        headers,
        replicaId: VOICE_REPLICA,
        attemptId: 'upgrade-1',
      });
      const again = { callId: call.id, carrier: 'carrier_b' as const, ...s, headers, attemptId: 'upgrade-1' };
      await expect(
        rpc.request(Subjects.calls.voiceAttach, null, { ...again, replicaId: VOICE_REPLICA }),
      ).resolves.toEqual(first);
      expect(await sessionOf(call.id)).toMatchObject({ mediaStream: 'live', voiceReplicaId: VOICE_REPLICA });
      // Another upgrade with the token, or the same attempt id from another replica, is a second use.
      await expect(
        rpc.request(Subjects.calls.voiceAttach, null, {
          ...again,
          attemptId: 'upgrade-2',
          replicaId: VOICE_REPLICA,
        }),
      ).rejects.toMatchObject({ code: ErrorCode.CONFLICT });
      await expect(
        rpc.request(Subjects.calls.voiceAttach, null, { ...again, replicaId: randomUUID() }),
      ).rejects.toMatchObject({ code: ErrorCode.CONFLICT });
    });

    it('refuses a carrier_b upgrade without the carrier signature (403), leaving the token usable', async () => {
      const call = await callOn('carrier_b');
      const s = stream('carrier_b', call.id);
      for (const headers of [{}, carrierBHeaders(s.url, 'another-token'), carrierBHeaders(`${s.url}&x=1`)]) {
        await expect(attach('carrier_b', call.id, s, headers)).rejects.toMatchObject({
          code: ErrorCode.FORBIDDEN,
        });
      }
      await expect(attach('carrier_b', call.id, s, carrierBHeaders(s.url))).resolves.toMatchObject({
        callId: call.id,
      });
    });

    it('checks carrier_a signature V3 over the stream URL', async () => {
      const call = await callOn('carrier_a');
      const s = stream('carrier_a', call.id);
      await expect(attach('carrier_a', call.id, s, carrierBHeaders(s.url))).rejects.toMatchObject({
        code: ErrorCode.FORBIDDEN,
      });
      await expect(attach('carrier_a', call.id, s, carrierAHeaders(s.url))).resolves.toMatchObject({
        callId: call.id,
        provider: 'carrier_a',
        agent: agentSettings,
      });
    });

    it('takes the token as the only proof on a sandbox stream', async () => {
      const call = await callOn('sandbox');
      const s = stream('sandbox', call.id);
      await expect(attach('sandbox', call.id, s, {})).resolves.toMatchObject({
        callId: call.id,
        provider: 'sandbox',
      });
      await expect(attach('sandbox', call.id, s, {})).rejects.toMatchObject({ code: ErrorCode.CONFLICT });
    });

    it('refuses an attach that does not name the voice replica serving it, leaving the token usable', async () => {
      const call = await callOn('sandbox');
      const s = stream('sandbox', call.id);
      for (const replicaId of [null, '', 'two.tokens', 42] as unknown as string[]) {
        await expect(attach('sandbox', call.id, s, {}, replicaId)).rejects.toMatchObject({
          code: ErrorCode.VALIDATION_ERROR,
        });
      }
      expect((await sessionOf(call.id)).mediaStream).toBeNull();
      await expect(attach('sandbox', call.id, s, {}, 'voice-2')).resolves.toMatchObject({ callId: call.id });
      expect((await sessionOf(call.id)).voiceReplicaId).toBe('voice-2');
    });

    it("opens one stream per call: another token's attach is refused while the stream is live and after it ended", async () => {
      const call = await callOn('carrier_b');
      const first = stream('carrier_b', call.id);
      await expect(attach('carrier_b', call.id, first, carrierBHeaders(first.url))).resolves.toMatchObject({
        callId: call.id,
      });
      // A second answer fetch minted a second valid, carrier-signed token: the call still has one stream.
      const second = stream('carrier_b', call.id);
      await expect(attach('carrier_b', call.id, second, carrierBHeaders(second.url))).rejects.toMatchObject({
        code: ErrorCode.CONFLICT,
        details: [STREAM_TAKEN_DETAIL],
      });
      await rpc.request(Subjects.calls.voiceEnded, null, {
        callId: call.id,
        endCallReason: null,
        mediaSeconds: 1,
        recording: null,
      });
      expect((await sessionOf(call.id)).mediaStream).toBe('ended');
      // No reconnect: a stream that ended is not replaced by a new token while the carrier still has the call.
      const third = stream('carrier_b', call.id);
      await expect(attach('carrier_b', call.id, third, carrierBHeaders(third.url))).rejects.toMatchObject({
        code: ErrorCode.CONFLICT,
        details: [STREAM_TAKEN_DETAIL],
      });
      expect((await sessionOf(call.id)).mediaStream).toBe('ended');
    });

    it('lets exactly one of simultaneous attaches with different tokens win', async () => {
      const call = await callOn('sandbox');
      const results = await Promise.allSettled(
        Array.from({ length: 6 }, () => attach('sandbox', call.id, stream('sandbox', call.id), {})),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')) {
        expect(r.reason).toMatchObject({ code: ErrorCode.CONFLICT, details: [STREAM_TAKEN_DETAIL] });
      }
      expect((await sessionOf(call.id)).mediaStream).toBe('live');
    });

    it('refuses (404) a stream for a call that ends while its attach is being decided', async () => {
      const call = await callOn('sandbox');
      const ending = dataSource.createQueryRunner();
      await ending.connect();
      await ending.startTransaction();
      try {
        // The carrier's final callback is ending the call, its transaction not yet committed.
        await ending.query(`UPDATE ${tableOf(dataSource, Call)} SET status = 'completed' WHERE id = $1`, [
          call.id,
        ]);
        const attached = attach('sandbox', call.id, stream('sandbox', call.id), {}).then(
          () => 'attached',
          (err: { code: string }) => err.code,
        );
        await new Promise((resolve) => setTimeout(resolve, 500));
        await ending.commitTransaction();
        // The call no longer counts against its partner's concurrency limit: it gets no conversation.
        expect(await attached).toBe(ErrorCode.NOT_FOUND);
      } finally {
        if (ending.isTransactionActive) await ending.rollbackTransaction();
        await ending.release();
      }
      expect((await sessionOf(call.id)).mediaStream).toBeNull();
    });

    it('is 404 for an unknown call, an ended call, or a stream on another carrier', async () => {
      const unknown = randomUUID();
      await expect(attach('sandbox', unknown, stream('sandbox', unknown), {})).rejects.toMatchObject({
        code: ErrorCode.NOT_FOUND,
      });
      const ended = await callOn('sandbox', 'completed');
      await expect(attach('sandbox', ended.id, stream('sandbox', ended.id), {})).rejects.toMatchObject({
        code: ErrorCode.NOT_FOUND,
      });
      const live = await callOn('carrier_b');
      await expect(attach('sandbox', live.id, stream('sandbox', live.id), {})).rejects.toMatchObject({
        code: ErrorCode.NOT_FOUND,
      });
    });
  });

  describe('calls.voice.tool_call', () => {
    const invocation = (callId: string, extra: Partial<VoiceToolCallRequest> = {}): VoiceToolCallRequest => ({
      callId,
      name: 'check_order',
      kind: 'custom',
      functionId: 'fn_1',
      arguments: { order_number: '42' },
      outcome: 'success',
      latencyMs: 84.4,
      logId: '5f0c7a4e-2b1d-4c39-9a57-0d8e6f1b2c3a',
      atMs: 1_500,
      ...extra,
    });

    it('lists invocations on the session in order, merges the variables they set, and shows both on the call', async () => {
      const call = await callOn('sandbox');
      await rpc.request(
        Subjects.calls.voiceToolCall,
        partnerId,
        invocation(call.id, { variables: { order_status: 'shipped', name: 'Ada L.' } }),
      );
      await rpc.request(Subjects.calls.voiceToolCall, null, {
        callId: call.id,
        name: 'end_call',
        kind: 'builtin',
        functionId: null,
        arguments: { reason: 'done' },
        outcome: 'success',
        latencyMs: 0,
        logId: null,
        atMs: 4_000,
      });
      const session = await sessionOf(call.id);
      const start = session.startedAt!.getTime();
      expect(session.toolCalls).toEqual<ToolCallEntry[]>([
        {
          name: 'check_order',
          kind: 'custom',
          function_id: 'fn_1',
          arguments: { order_number: '42' },
          arguments_truncated: false,
          outcome: 'success',
          latency_ms: 84,
          log_id: 'ilog_5f0c7a4e-2b1d-4c39-9a57-0d8e6f1b2c3a',
          timestamp: new Date(start + 1_500).toISOString(),
          variables: { order_status: 'shipped', name: 'Ada L.' },
        },
        {
          name: 'end_call',
          kind: 'builtin',
          function_id: null,
          arguments: { reason: 'done' },
          arguments_truncated: false,
          outcome: 'success',
          latency_ms: 0,
          log_id: null,
          timestamp: new Date(start + 4_000).toISOString(),
          variables: {},
        },
      ]);
      // The pre-call variables, with what the function set over them.
      const updated = await callOf(call.id);
      expect(updated.variables).toEqual({ name: 'Ada L.', order_status: 'shipped' });
      const dto = toCallDto(updated, session, null);
      expect(dto.session.tool_calls).toEqual(session.toolCalls);
      expect(dto.session.variables).toEqual({ name: 'Ada L.', order_status: 'shipped' });
    });

    it('keeps a handoff as kind handoff, as GET /agent/{id}/tools lists it', async () => {
      const call = await callOn('sandbox');
      await rpc.request(Subjects.calls.voiceToolCall, partnerId, {
        callId: call.id,
        name: 'handoff_to_billing',
        kind: 'handoff',
        functionId: null,
        arguments: { reason: 'billing question' },
        outcome: 'success',
        latencyMs: 12,
        logId: null,
        atMs: 2_000,
      });
      expect((await sessionOf(call.id)).toolCalls).toEqual([
        expect.objectContaining({ name: 'handoff_to_billing', kind: 'handoff', outcome: 'success' }),
      ]);
    });

    it('records a retried report once, by its stream and place on it', async () => {
      const call = await callOn('sandbox');
      const streamId = randomUUID();
      const report = (seq: number, outcome: VoiceToolCallRequest['outcome']) =>
        rpc.request(Subjects.calls.voiceToolCall, partnerId, invocation(call.id, { streamId, seq, outcome }));
      await report(0, 'success');
      await report(0, 'success');
      await report(1, 'timeout');
      await report(0, 'success');
      expect((await sessionOf(call.id)).toolCalls.map((t) => t.outcome)).toEqual(['success', 'timeout']);
    });

    it('keeps large arguments out, and refuses what is not a tool call (400) or not the partner’s call (404)', async () => {
      const call = await callOn('sandbox');
      await rpc.request(
        Subjects.calls.voiceToolCall,
        partnerId,
        invocation(call.id, { arguments: { note: 'x'.repeat(TOOL_CALL_MAX_ARGUMENT_BYTES) } }),
      );
      expect((await sessionOf(call.id)).toolCalls[0]).toMatchObject({
        arguments: {},
        arguments_truncated: true,
      });
      for (const bad of [
        { name: 'not a name!' },
        { kind: 'partner' },
        { outcome: 'exploded' },
        { arguments: ['a'] },
        { latencyMs: -1 },
        { atMs: '1000' },
        { logId: 'log id with spaces' },
        { variables: 'x' },
        { variables: { big: 'x'.repeat(20_000) } },
      ]) {
        await expect(
          rpc.request(Subjects.calls.voiceToolCall, partnerId, invocation(call.id, bad as never)),
        ).rejects.toMatchObject({ code: ErrorCode.VALIDATION_ERROR });
      }
      await expect(
        rpc.request(Subjects.calls.voiceToolCall, randomUUID(), invocation(call.id)),
      ).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
      expect((await sessionOf(call.id)).toolCalls).toHaveLength(1);
    });

    it(`keeps at most ${TOOL_CALLS_PER_CALL_MAX} invocations, and variables only up to the call's bound`, async () => {
      const call = await callOn('sandbox');
      const big = (i: number) => ({ [`v${i}`]: 'x'.repeat(15_000) });
      for (let i = 0; i < 5; i++) {
        await rpc.request(
          Subjects.calls.voiceToolCall,
          partnerId,
          invocation(call.id, { variables: big(i) }),
        );
      }
      // 64 KB of variables hold four of them: the fifth invocation is listed, its values not merged.
      expect(Object.keys((await callOf(call.id)).variables).sort()).toEqual(['name', 'v0', 'v1', 'v2', 'v3']);
      await dataSource.query(
        `UPDATE calls.call_sessions
            SET tool_calls = (SELECT jsonb_agg(s.tool_calls -> 0)
                                FROM calls.call_sessions s, generate_series(1, $2::int)
                               WHERE s.call_id = $1)
          WHERE call_id = $1`,
        [call.id, TOOL_CALLS_PER_CALL_MAX],
      );
      await rpc.request(
        Subjects.calls.voiceToolCall,
        partnerId,
        invocation(call.id, { variables: { late: 1 } }),
      );
      expect((await sessionOf(call.id)).toolCalls).toHaveLength(TOOL_CALLS_PER_CALL_MAX);
      expect((await callOf(call.id)).variables).not.toHaveProperty('late');
    });
  });

  describe('calls.voice.transcript', () => {
    it('appends lines timed on the media clock, agent turns with their latency, cut lines marked interrupted, and the live seconds', async () => {
      const call = await callOn('sandbox');
      const latency = {
        endpointing_ms: 80,
        stt_final_ms: 120,
        llm_first_token_ms: 310.6,
        tts_first_byte_ms: 95,
        first_frame_out_ms: 4,
        voice_to_voice_ms: 529,
      };
      await rpc.request(Subjects.calls.voiceTranscript, null, {
        callId: call.id,
        role: 'bot',
        content: 'Hello from Acme',
        atMs: 250,
        callSeconds: 0,
      });
      await rpc.request(Subjects.calls.voiceTranscript, null, {
        callId: call.id,
        role: 'user',
        content: 'What are your hours?',
        atMs: 2_000,
        callSeconds: 3,
        latency,
      });
      await rpc.request(Subjects.calls.voiceTranscript, partnerId, {
        callId: call.id,
        role: 'bot',
        content: 'We are open nine to five.',
        atMs: 3_400,
        callSeconds: 4.6,
        latency,
      });
      await rpc.request(Subjects.calls.voiceTranscript, partnerId, {
        callId: call.id,
        role: 'bot',
        content: 'Is there anything',
        atMs: 5_000,
        callSeconds: 4.6,
        interrupted: true,
      });
      const session = await sessionOf(call.id);
      const start = session.startedAt!.getTime();
      expect(session.transcript).toEqual<TranscriptEntry[]>([
        { role: 'bot', content: 'Hello from Acme', timestamp: new Date(start + 250).toISOString() },
        { role: 'user', content: 'What are your hours?', timestamp: new Date(start + 2_000).toISOString() },
        {
          role: 'bot',
          content: 'We are open nine to five.',
          timestamp: new Date(start + 3_400).toISOString(),
          latency: { ...latency, llm_first_token_ms: 311 },
        },
        {
          role: 'bot',
          content: 'Is there anything',
          timestamp: new Date(start + 5_000).toISOString(),
          interrupted: true,
        },
      ]);
      const [{ live_seconds }] = await dataSource.query(
        `SELECT live_seconds FROM calls.call_sessions WHERE call_id = $1`,
        [call.id],
      );
      expect(Number(live_seconds)).toBeCloseTo(4.6, 3);
    });

    it('keeps the endpointing wait as whole ms, takes a line without it from an older voice replica, refuses a bad one', async () => {
      const call = await callOn('sandbox');
      // What a voice replica from before the endpointing wait was measured sends.
      const older = {
        stt_final_ms: 120,
        llm_first_token_ms: 310,
        tts_first_byte_ms: 95,
        first_frame_out_ms: 4,
        voice_to_voice_ms: 529,
      };
      const line = (atMs: number, latency: unknown) =>
        rpc.request(Subjects.calls.voiceTranscript, partnerId, {
          callId: call.id,
          role: 'bot',
          content: 'Sure.',
          atMs,
          callSeconds: atMs / 1000,
          latency: latency as TurnLatency,
        });
      await line(1_000, { ...older, endpointing_ms: 412.6 });
      await line(2_000, older);
      for (const bad of [-1, '400', null]) {
        await expect(line(3_000, { ...older, endpointing_ms: bad })).rejects.toMatchObject({
          code: ErrorCode.VALIDATION_ERROR,
        });
      }
      expect((await sessionOf(call.id)).transcript.map((e) => e.latency)).toEqual([
        { ...older, endpointing_ms: 413 },
        older,
      ]);
    });

    it('records a line the voice service retried once, by its stream and place on it', async () => {
      const call = await callOn('sandbox');
      const streamA = randomUUID();
      const streamB = randomUUID();
      const line = (content: string, streamId: string, seq: number) =>
        rpc.request(Subjects.calls.voiceTranscript, partnerId, {
          callId: call.id,
          role: 'bot',
          content,
          atMs: seq * 1000,
          callSeconds: seq,
          streamId,
          seq,
        });
      await line('Hello from Acme', streamA, 0);
      // The reply was lost (a timeout): the same line again, then the next one, then a late repeat.
      await line('Hello from Acme', streamA, 0);
      await line('How can I help?', streamA, 1);
      await line('Hello from Acme', streamA, 0);
      // A line given up on leaves a gap; the next one is still recorded.
      await line('Anything else?', streamA, 3);
      await line('How can I help?', streamA, 1);
      // Another stream of the same call counts its own lines.
      await line('Welcome back', streamB, 0);
      expect((await sessionOf(call.id)).transcript.map((e) => e.content)).toEqual([
        'Hello from Acme',
        'How can I help?',
        'Anything else?',
        'Welcome back',
      ]);
      for (const [streamId, seq] of [
        ['not an id', 0],
        [streamA, -1],
        [streamA, 1.5],
        [undefined, 4],
      ] as const) {
        await expect(
          rpc.request(Subjects.calls.voiceTranscript, partnerId, {
            callId: call.id,
            role: 'user',
            content: 'hi',
            atMs: 0,
            callSeconds: 0,
            streamId,
            seq,
          }),
        ).rejects.toMatchObject({ code: ErrorCode.VALIDATION_ERROR });
      }
      expect((await sessionOf(call.id)).transcript).toHaveLength(4);
    });

    it('keeps the providers that served an agent turn, and refuses names it does not know', async () => {
      const call = await callOn('sandbox');
      const providers = {
        stt: 'openai',
        llm: 'anthropic',
        llm_model: 'claude-3-5-haiku-latest',
        tts: 'offline',
      } as const;
      const line = { callId: call.id, role: 'bot' as const, content: 'Sure.', atMs: 1_000, callSeconds: 1 };
      await rpc.request(Subjects.calls.voiceTranscript, partnerId, { ...line, providers });
      // On a caller's line there is nothing to keep.
      await rpc.request(Subjects.calls.voiceTranscript, partnerId, {
        ...line,
        role: 'user',
        content: 'Hi',
        providers,
      });
      for (const bad of [
        { ...providers, stt: 'whisper' },
        { ...providers, llm: 'secondary' },
        { ...providers, llm_model: 5 },
        { ...providers, llm_model: 'm'.repeat(129) },
        { stt: 'openai', llm: 'primary' },
      ]) {
        await expect(
          rpc.request(Subjects.calls.voiceTranscript, partnerId, { ...line, providers: bad as never }),
        ).rejects.toMatchObject({ code: ErrorCode.VALIDATION_ERROR });
      }
      const session = await sessionOf(call.id);
      expect(session.transcript.map((e) => e.providers)).toEqual([providers, undefined]);
    });

    it('keeps the providers of a speech-to-speech line: the model’s provider heard and spoke it', async () => {
      const call = await callOn('sandbox');
      const providers = {
        stt: 'google',
        llm: 'google',
        llm_model: 'gemini-live-2.5-flash-preview',
        tts: 'google',
      } as const;
      const line = { callId: call.id, role: 'bot' as const, content: 'Sure.', atMs: 1_000, callSeconds: 1 };
      await rpc.request(Subjects.calls.voiceTranscript, partnerId, { ...line, providers });
      const session = await sessionOf(call.id);
      expect(session.transcript.map((e) => e.providers)).toEqual([providers]);
    });

    it("keeps a model line's tokens, counts a retried line once, and sums the call's model use from its lines", async () => {
      const call = await callOn('sandbox');
      const stream = randomUUID();
      const haiku = {
        stt: 'deepgram',
        llm: 'anthropic',
        llm_model: 'claude-3-5-haiku-latest',
        tts: 'cartesia',
      };
      const mini = { ...haiku, llm: 'openai', llm_model: 'gpt-4o-mini' };
      const line = (seq: number, fields: Record<string, unknown>) =>
        rpc.request(Subjects.calls.voiceTranscript, partnerId, {
          callId: call.id,
          role: 'bot',
          content: `Line ${seq}`,
          atMs: seq * 1000,
          callSeconds: seq,
          streamId: stream,
          seq,
          ...fields,
        });
      // The intro: no model wrote it.
      await line(0, { providers: { ...haiku, llm: null, llm_model: null } });
      await line(1, { providers: haiku, usage: { input_tokens: 812, output_tokens: 37 } });
      // The reply was lost: the same line again is recorded once, its tokens counted once.
      await line(1, { providers: haiku, usage: { input_tokens: 812, output_tokens: 37 } });
      // A turn with a tool round: the line carries both rounds' tokens.
      await line(2, { providers: haiku, usage: { input_tokens: 1650, output_tokens: 61 } });
      // The fallback took a turn; a line whose provider reported no tokens still counts as a reply.
      await line(3, { providers: mini, usage: { input_tokens: 900, output_tokens: 12 } });
      await line(4, { providers: mini });
      await rpc.request(Subjects.calls.voiceTranscript, partnerId, {
        callId: call.id,
        role: 'user',
        content: 'Thanks',
        atMs: 5000,
        callSeconds: 5,
        usage: { input_tokens: 1, output_tokens: 1 },
      });
      const session = await sessionOf(call.id);
      expect(session.transcript.map((e) => e.usage)).toEqual([
        undefined,
        { input_tokens: 812, output_tokens: 37 },
        { input_tokens: 1650, output_tokens: 61 },
        { input_tokens: 900, output_tokens: 12 },
        undefined,
        undefined,
      ]);
      // Whose key: nobody has reported yet (the stream is live), so not known.
      expect(toCallDto(await callOf(call.id), session, null).model_usage).toEqual([
        {
          provider: 'anthropic',
          model: 'claude-3-5-haiku-latest',
          paid_by: null,
          input_tokens: 2462,
          output_tokens: 98,
          replies: 2,
        },
        {
          provider: 'openai',
          model: 'gpt-4o-mini',
          paid_by: null,
          input_tokens: 900,
          output_tokens: 12,
          replies: 2,
        },
      ]);
      for (const usage of [
        { input_tokens: -1, output_tokens: 0 },
        { input_tokens: 1.5, output_tokens: 0 },
        { input_tokens: '10', output_tokens: 0 },
        { input_tokens: 10 },
        { input_tokens: 0, output_tokens: 100_000_001 },
        null,
        7,
      ]) {
        await expect(
          line(6, { providers: haiku, usage: usage as never, streamId: undefined, seq: undefined }),
        ).rejects.toMatchObject({
          code: ErrorCode.VALIDATION_ERROR,
          details: [expect.objectContaining({ field: expect.stringMatching(/^usage/) })],
        });
      }
      expect((await sessionOf(call.id)).transcript).toHaveLength(6);
    });

    it('keeps the providers of a line no model wrote (the intro): llm null, the others still required', async () => {
      const call = await callOn('sandbox');
      const providers = { stt: 'deepgram', llm: null, tts: 'openai' } as const;
      const line = { callId: call.id, role: 'bot' as const, content: 'Hello!', atMs: 0, callSeconds: 0 };
      await rpc.request(Subjects.calls.voiceTranscript, partnerId, { ...line, providers });
      for (const bad of [
        { ...providers, stt: null },
        { ...providers, tts: null },
      ]) {
        await expect(
          rpc.request(Subjects.calls.voiceTranscript, partnerId, { ...line, providers: bad as never }),
        ).rejects.toMatchObject({ code: ErrorCode.VALIDATION_ERROR });
      }
      expect((await sessionOf(call.id)).transcript.map((e) => e.providers)).toEqual([providers]);
    });

    it("is 404 for another partner's call and 400 for a line without its time", async () => {
      const call = await callOn('sandbox');
      const line = { callId: call.id, role: 'user' as const, content: 'hi', atMs: 0, callSeconds: 0 };
      await expect(rpc.request(Subjects.calls.voiceTranscript, randomUUID(), line)).rejects.toMatchObject({
        code: ErrorCode.NOT_FOUND,
      });
      await expect(
        rpc.request(Subjects.calls.voiceTranscript, null, { ...line, atMs: -1 }),
      ).rejects.toMatchObject({ code: ErrorCode.VALIDATION_ERROR });
      expect((await sessionOf(call.id)).transcript).toEqual([]);
    });

    it('refuses a line an ended call got after its end (409 INVALID_STATE), keeping the one cut by the hang-up', async () => {
      const call = await callOn('carrier_b', 'completed');
      await dataSource.getRepository(Call).update({ id: call.id }, { durationSeconds: 12 });
      const line = (content: string, atMs: number) =>
        rpc.request(Subjects.calls.voiceTranscript, partnerId, {
          callId: call.id,
          role: 'bot',
          content,
          atMs,
          callSeconds: atMs / 1000,
        });
      // Said before the 12 s the carrier counted, reported after the end: what the caller heard.
      await line('We have three', 11_500);
      await expect(line('plans for you.', 14_000)).rejects.toMatchObject({ code: ErrorCode.INVALID_STATE });
      expect((await sessionOf(call.id)).transcript.map((e) => e.content)).toEqual(['We have three']);
    });
  });

  describe('calls.voice.warm_transfer', () => {
    const WARM = {
      transfer: { mode: 'warm_handback', briefingInstructions: null, ringTimeoutSecs: 12 },
    } as const;

    /** The voice replica holding the call: records the transfer outcomes it is told. */
    function replicaHolding(callId: string) {
      const told: unknown[] = [];
      const serving = new AddressedCommandServer(app.get(NatsConnectionService)).serve(
        AddressedSubjects.voice.transferOutcome,
        callId,
        async (data) => {
          told.push(data);
          return { accepted: true };
        },
      );
      return { told, close: () => serving.close() };
    }

    const transferredOf = async (callId: string) =>
      (
        (await dataSource.query(`SELECT event FROM calls.outbox WHERE subject = $1`, [
          DomainEvents.callTransferred,
        ])) as { event: { data: { call_id: string; outcome: string; transfer_type: string } } }[]
      )
        .map((row) => row.event.data)
        .filter((data) => data.call_id === callId);

    it('dials the human leg, opens one consult stream with the briefing, and bridges both legs in a conference on yes', async () => {
      const call = await callOn('carrier_b', 'in_progress', WARM);
      const voice = replicaHolding(call.id);
      await app.get(NatsConnectionService).nc.flush();
      api.take();
      const request = { callId: call.id, to: TRANSFER_TO, reason: 'refund', briefing: 'Ada wants a refund.' };
      await expect(rpc.request(Subjects.calls.voiceWarmTransfer, null, request)).resolves.toEqual({
        started: true,
      });
      const [placed, ...more] = api.take();
      expect(more).toEqual([]);
      expect(placed.path).toBe(`/2010-04-01/Accounts/${CARRIER_B.account_sid}/Calls.json`);
      const form = new URLSearchParams(placed.body);
      expect(Object.fromEntries(form)).toMatchObject({
        To: TRANSFER_TO,
        From: call.fromNumber,
        Timeout: '12',
        Url: `https://api.example.test/callbacks/carrier_b/${call.id}/transfer_answer`,
        StatusCallback: `https://api.example.test/callbacks/carrier_b/${call.id}/transfer_status`,
      });
      const pending = await callOf(call.id);
      const consultId = pending.transferConsultId!;
      const humanSid = pending.transfer!.legs[1].carrier_call_id!;
      expect(humanSid).toMatch(/^CAhuman/);
      expect(pending.transfer).toMatchObject({
        transfer_type: 'warm',
        outcome: null,
        to_number: TRANSFER_TO,
      });
      // A second transfer while one is under way is refused.
      await expect(rpc.request(Subjects.calls.voiceWarmTransfer, null, request)).resolves.toEqual({
        started: false,
      });

      // The human's answer streams under the consult id: its attach answers the consult context, once.
      const s = stream('carrier_b', consultId);
      const context = await attach('carrier_b', consultId, s, carrierBHeaders(s.url));
      expect(context).toMatchObject({
        callId: consultId,
        partnerId,
        toNumber: TRANSFER_TO,
        consult: { callId: call.id, briefing: 'Ada wants a refund.' },
      });
      expect(context.agent.enableRecording).toBe(false);
      const again = stream('carrier_b', consultId);
      await expect(attach('carrier_b', consultId, again, carrierBHeaders(again.url))).rejects.toMatchObject({
        status: 409,
      });
      // The call's own stream is untouched by the consult's.
      expect((await sessionOf(call.id)).mediaStream).toBeNull();

      await expect(
        rpc.request(Subjects.calls.voiceTransferDecision, null, { consultId, accepted: true }),
      ).resolves.toEqual({ outcome: 'bridged' });
      const bridges = api.take();
      const conference = `<Response><Dial><Conference beep="false" startConferenceOnEnter="true" endConferenceOnExit="true">vap-transfer-${call.id}</Conference></Dial></Response>`;
      expect(bridges.map((r) => [r.path, new URLSearchParams(r.body).get('Twiml')])).toEqual([
        [`/2010-04-01/Accounts/${CARRIER_B.account_sid}/Calls/${humanSid}.json`, conference],
        [`/2010-04-01/Accounts/${CARRIER_B.account_sid}/Calls/${call.providerCallId}.json`, conference],
      ]);
      const bridged = await callOf(call.id);
      expect(bridged.endCallReason).toBe('transferred');
      expect(bridged.transfer).toMatchObject({
        outcome: 'bridged',
        bridged_at: expect.any(String),
        legs: [
          { role: 'caller', status: 'bridged', carrier_call_id: call.providerCallId },
          { role: 'human', status: 'bridged', carrier_call_id: humanSid },
        ],
      });
      expect(voice.told).toEqual([{ callId: call.id, outcome: 'bridged' }]);
      expect(await transferredOf(call.id)).toEqual([
        expect.objectContaining({ transfer_type: 'warm', outcome: 'bridged' }),
      ]);
      // A decision repeated changes nothing.
      await expect(
        rpc.request(Subjects.calls.voiceTransferDecision, null, { consultId, accepted: false }),
      ).resolves.toEqual({ outcome: 'bridged' });
      expect(api.take()).toEqual([]);
      expect(await transferredOf(call.id)).toHaveLength(1);

      // The bridged call ends (a side hangs up, the carrier completes it): its live legs end with it.
      const hungUpAt = new Date(Date.now() + 60_000);
      await app.get(CallProgressService).apply(
        { callId: call.id },
        {
          provider: 'carrier_b',
          kind: 'status',
          dedupeKey: 'bridged-call-completed',
          providerStatus: 'completed',
          providerEvent: 'completed',
          sequence: null,
          ended: true,
          occurredAt: hungUpAt,
        },
      );
      const ended = await callOf(call.id);
      expect(ended.status).toBe('completed');
      expect(ended.transfer).toMatchObject({
        outcome: 'bridged',
        legs: [
          { role: 'caller', status: 'completed', ended_at: hungUpAt.toISOString() },
          { role: 'human', status: 'completed', ended_at: hungUpAt.toISOString() },
        ],
      });
      await voice.close();
    });

    it('a decline hangs the human leg up and tells the replica; the caller may be transferred again', async () => {
      const call = await callOn('carrier_b', 'in_progress', WARM);
      const voice = replicaHolding(call.id);
      await app.get(NatsConnectionService).nc.flush();
      const request = { callId: call.id, to: TRANSFER_TO, reason: 'x', briefing: 'Brief.' };
      await rpc.request(Subjects.calls.voiceWarmTransfer, null, request);
      const consultId = (await callOf(call.id)).transferConsultId!;
      const humanSid = (await callOf(call.id)).transfer!.legs[1].carrier_call_id!;
      api.take();
      await expect(
        rpc.request(Subjects.calls.voiceTransferDecision, null, { consultId, accepted: false }),
      ).resolves.toEqual({ outcome: 'declined' });
      const [hangup] = api.take();
      expect(hangup.path).toBe(`/2010-04-01/Accounts/${CARRIER_B.account_sid}/Calls/${humanSid}.json`);
      expect(Object.fromEntries(new URLSearchParams(hangup.body))).toEqual({ Status: 'completed' });
      expect(voice.told).toEqual([{ callId: call.id, outcome: 'declined' }]);
      const declined = await callOf(call.id);
      expect(declined.endCallReason).toBeNull();
      expect(declined.transfer).toMatchObject({ outcome: 'declined', legs: [{}, { status: 'declined' }] });
      await expect(rpc.request(Subjects.calls.voiceWarmTransfer, null, request)).resolves.toEqual({
        started: true,
      });
      await voice.close();
    });

    it('refuses a warm transfer of a cold agent, to another number, or without a briefing', async () => {
      const cold = await callOn('carrier_b');
      const ask = (callId: string, over: Record<string, unknown> = {}) =>
        rpc.request(Subjects.calls.voiceWarmTransfer, null, {
          callId,
          to: TRANSFER_TO,
          reason: 'x',
          briefing: 'Brief.',
          ...over,
        });
      await expect(ask(cold.id)).rejects.toMatchObject({ code: ErrorCode.VALIDATION_ERROR });
      const warm = await callOn('carrier_b', 'in_progress', WARM);
      await expect(ask(warm.id, { to: '+15550001111' })).rejects.toMatchObject({ code: ErrorCode.FORBIDDEN });
      await expect(ask(warm.id, { briefing: ' ' })).rejects.toMatchObject({
        code: ErrorCode.VALIDATION_ERROR,
      });
      await expect(ask(warm.id, { briefing: 'x'.repeat(2001) })).rejects.toMatchObject({
        code: ErrorCode.VALIDATION_ERROR,
      });
    });

    it('carrier_a: the human leg is placed as JSON with its own URLs, and the bridge moves both legs to the conference XML', async () => {
      const call = await callOn('carrier_a', 'in_progress', WARM);
      api.take();
      await expect(
        rpc.request(Subjects.calls.voiceWarmTransfer, null, {
          callId: call.id,
          to: TRANSFER_TO,
          reason: 'x',
          briefing: 'Brief.',
        }),
      ).resolves.toEqual({ started: true });
      const [placed] = api.take();
      expect(placed.path).toBe(`/v1/Account/${CARRIER_A.auth_id}/Call/`);
      const base = `https://api.example.test/callbacks/carrier_a/${call.id}`;
      expect(JSON.parse(placed.body)).toEqual({
        from: call.fromNumber,
        to: TRANSFER_TO,
        answer_url: `${base}/transfer_answer`,
        answer_method: 'POST',
        ring_url: `${base}/transfer_status`,
        ring_method: 'POST',
        hangup_url: `${base}/transfer_status`,
        hangup_method: 'POST',
        ring_timeout: 12,
      });
      const pending = await callOf(call.id);
      const humanLeg = pending.transfer!.legs[1].carrier_call_id!;
      expect(humanLeg).toMatch(/^req-human-/);
      await expect(
        rpc.request(Subjects.calls.voiceTransferDecision, null, {
          consultId: pending.transferConsultId!,
          accepted: true,
        }),
      ).resolves.toEqual({ outcome: 'bridged' });
      expect(api.take().map((r) => [r.path, JSON.parse(r.body)])).toEqual([
        [
          `/v1/Account/${CARRIER_A.auth_id}/Call/${humanLeg}/`,
          { legs: 'aleg', aleg_url: `${base}/transfer_conference`, aleg_method: 'POST' },
        ],
        [
          `/v1/Account/${CARRIER_A.auth_id}/Call/${call.carrierLegId}/`,
          { legs: 'aleg', aleg_url: `${base}/transfer_conference`, aleg_method: 'POST' },
        ],
      ]);
      expect((await callOf(call.id)).transfer).toMatchObject({ outcome: 'bridged' });
    });
  });

  describe('calls.voice.transfer', () => {
    const transferredEvents = async (callId: string) =>
      (
        (await dataSource.query(`SELECT event FROM calls.outbox WHERE subject = $1`, [
          DomainEvents.callTransferred,
        ])) as { event: { data: { call_id: string; transfer_to: string; reason: string } } }[]
      ).filter((row) => row.event.data.call_id === callId);

    it('updates a carrier_b call with TwiML that dials the number, then records call.transferred once', async () => {
      const call = await callOn('carrier_b');
      api.take();
      const request = { callId: call.id, to: TRANSFER_TO, reason: 'caller_asked_for_human' };
      await expect(rpc.request(Subjects.calls.voiceTransfer, null, request)).resolves.toEqual({
        transferred: true,
      });
      const [sent, ...more] = api.take();
      expect(more).toEqual([]);
      expect(sent).toMatchObject({
        method: 'POST',
        path: `/2010-04-01/Accounts/${CARRIER_B.account_sid}/Calls/${call.providerCallId}.json`,
        authorization: `Basic ${Buffer.from(`${CARRIER_B.account_sid}:${CARRIER_B.auth_token}`).toString('base64')}`,
        contentType: 'application/x-www-form-urlencoded',
      });
      expect(Object.fromEntries(new URLSearchParams(sent.body))).toEqual({
        Twiml: `<Response><Dial>${TRANSFER_TO}</Dial></Response>`,
      });
      const transferred = await callOf(call.id);
      expect(transferred.endCallReason).toBe('transferred');
      // The call keeps the transfer: cold, handed over, the caller's leg by its CallSid, the human's dialed by
      // the carrier on it.
      const iso = expect.stringMatching(/^\d{4}-\d\d-\d\dT/);
      const record = {
        transfer_type: 'cold',
        to_number: TRANSFER_TO,
        reason: 'caller_asked_for_human',
        outcome: 'bridged',
        requested_at: iso,
        answered_at: null,
        bridged_at: iso,
        legs: [
          expect.objectContaining({
            role: 'caller',
            carrier_call_id: call.providerCallId,
            from_number: call.fromNumber,
            to_number: call.toNumber,
            status: 'bridged',
          }),
          expect.objectContaining({
            role: 'human',
            carrier_call_id: null,
            from_number: call.fromNumber,
            to_number: TRANSFER_TO,
            status: 'carrier_dialed',
            answered_at: null,
          }),
        ],
      };
      expect(transferred.transfer).toEqual(record);
      expect(Date.parse(transferred.transfer!.requested_at)).toBeLessThanOrEqual(
        Date.parse(transferred.transfer!.bridged_at!),
      );
      const events = await transferredEvents(call.id);
      const { transfer_type, outcome, requested_at, answered_at, bridged_at, legs } = record;
      expect(events.map((e) => e.event.data)).toEqual([
        expect.objectContaining({
          transfer_to: TRANSFER_TO,
          reason: 'caller_asked_for_human',
          ...{ transfer_type, outcome, requested_at, answered_at, bridged_at, legs },
        }),
      ]);

      // A retried command: the transfer stands, the carrier is not asked again, no second event.
      await expect(rpc.request(Subjects.calls.voiceTransfer, null, request)).resolves.toEqual({
        transferred: true,
      });
      expect(api.take()).toEqual([]);
      expect(await transferredEvents(call.id)).toHaveLength(1);
    });

    it('ends a call the carrier completes while it is being transferred as transferred, with its record and event', async () => {
      const call = await callOn('carrier_b');
      api.take();
      // The carrier takes the call and reports the caller's leg completed before it answers the transfer request.
      let completion: Promise<unknown> | undefined;
      let completed = false;
      api.beforeAnswer = async () => {
        api.beforeAnswer = undefined;
        completion = app
          .get(CallProgressService)
          .apply(
            { callId: call.id },
            {
              provider: 'carrier_b',
              kind: 'status',
              dedupeKey: 'completed-during-transfer',
              providerStatus: 'completed',
              providerEvent: 'completed',
              sequence: null,
              ended: true,
              occurredAt: new Date(),
            },
          )
          .finally(() => {
            completed = true;
          });
        // The status callback is in: it waits for the call's row, or (the row not held) has ended the call.
        await waitFor(
          async () => {
            if (completed) return true;
            const waiting = (await dataSource.query(
              `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
            )) as unknown[];
            return waiting.length ? true : undefined;
          },
          { timeoutMs: 10_000, description: 'the status callback to reach the call' },
        );
      };
      const request = { callId: call.id, to: TRANSFER_TO, reason: 'caller_asked_for_human' };
      await expect(rpc.request(Subjects.calls.voiceTransfer, null, request)).resolves.toEqual({
        transferred: true,
      });
      await completion;
      const ended = await callOf(call.id);
      expect(ended).toMatchObject({
        status: 'completed',
        disposition: 'transferred',
        endCallReason: 'transferred',
      });
      expect(ended.transfer).toMatchObject({
        transfer_type: 'cold',
        to_number: TRANSFER_TO,
        outcome: 'bridged',
      });
      expect(await transferredEvents(call.id)).toHaveLength(1);
    });
    it('moves a carrier_a leg to our signed transfer callback, whose XML dials the number', async () => {
      const call = await callOn('carrier_a');
      api.take();
      await expect(
        rpc.request(Subjects.calls.voiceTransfer, null, { callId: call.id, to: TRANSFER_TO, reason: 'x' }),
      ).resolves.toEqual({ transferred: true });
      const [sent] = api.take();
      expect(sent).toMatchObject({
        method: 'POST',
        path: `/v1/Account/${CARRIER_A.auth_id}/Call/${call.carrierLegId}/`,
      });
      const transferUrl = `https://api.example.test/callbacks/carrier_a/${call.id}/transfer?to=%2B15550009999`;
      expect(JSON.parse(sent.body)).toEqual({ legs: 'aleg', aleg_url: transferUrl, aleg_method: 'POST' });

      // carrier_a fetches the aleg_url, signed like every callback.
      const path = transferUrl.slice('https://api.example.test'.length);
      const body = `CallUUID=${call.carrierLegId}&ALegRequestUUID=${call.providerCallId}&CallStatus=in-progress`;
      const nonce = 'n-1';
      const params = new Map([
        ['CallUUID', [call.carrierLegId!]],
        ['ALegRequestUUID', [call.providerCallId!]],
        ['CallStatus', ['in-progress']],
      ]);
      const request = (signature: string) => ({
        provider: 'carrier_a',
        method: 'POST',
        url: `http://gateway${path}`,
        path,
        headers: { 'x-plivo-signature-v3': signature, 'x-plivo-signature-v3-nonce': nonce },
        rawBody: Buffer.from(body),
        params: { callId: call.id, event: 'transfer' },
      });
      const adapter = app.get(CarrierAAdapter);
      const parsed = await adapter.parseCallback(
        request(carrierASignature(CARRIER_A.auth_token, 'POST', transferUrl, params, nonce)),
        carrierCallOf(call),
      );
      expect(parsed.reply?.body).toContain(
        `<Response><Dial><Number>${TRANSFER_TO}</Number></Dial></Response>`,
      );
      await expect(adapter.parseCallback(request('forged'), carrierCallOf(call))).rejects.toMatchObject({
        code: ErrorCode.FORBIDDEN,
      });
    });

    it('answers false and records nothing when the carrier refuses or the call has ended', async () => {
      const call = await callOn('carrier_b');
      api.status = 500;
      try {
        await expect(
          rpc.request(Subjects.calls.voiceTransfer, null, { callId: call.id, to: TRANSFER_TO, reason: 'x' }),
        ).resolves.toEqual({ transferred: false });
      } finally {
        api.status = 200;
      }
      expect((await callOf(call.id)).endCallReason).toBeNull();
      expect(await transferredEvents(call.id)).toEqual([]);

      const ended = await callOn('carrier_b', 'completed');
      api.take();
      await expect(
        rpc.request(Subjects.calls.voiceTransfer, null, { callId: ended.id, to: TRANSFER_TO, reason: 'x' }),
      ).resolves.toEqual({ transferred: false });
      expect(api.take()).toEqual([]);
    });

    it("refuses a number other than the agent's transfer_number, and any number when transfers are off", async () => {
      const call = await callOn('carrier_b');
      const off = await callOn('carrier_b', 'in_progress', { transferEnabled: false });
      api.take();
      for (const [callId, to] of [
        [call.id, '+15550001111'],
        [off.id, TRANSFER_TO],
      ]) {
        await expect(
          rpc.request(Subjects.calls.voiceTransfer, null, { callId, to, reason: 'x' }),
        ).rejects.toMatchObject({ code: ErrorCode.FORBIDDEN });
      }
      // Nothing was asked of the carrier, nothing recorded; the call stays live.
      expect(api.take()).toEqual([]);
      for (const id of [call.id, off.id]) {
        expect((await callOf(id)).endCallReason).toBeNull();
        expect(await transferredEvents(id)).toEqual([]);
      }
    });

    it('refuses a transfer_number on the do-not-call list', async () => {
      const listed = '+15550008888';
      const call = await callOn('carrier_b', 'in_progress', { transferNumber: listed });
      const entry = await app
        .get(CreateDoNotCallEntry)
        .execute(partnerId, { prefix: '+1555000888', reason: 'legal' });
      api.take();
      await expect(
        rpc.request(Subjects.calls.voiceTransfer, null, { callId: call.id, to: listed, reason: 'x' }),
      ).rejects.toMatchObject({ code: ErrorCode.DO_NOT_CALL, message: expect.stringContaining(entry.id) });
      expect(api.take()).toEqual([]);
      expect((await callOf(call.id)).endCallReason).toBeNull();
      expect(await transferredEvents(call.id)).toEqual([]);
    });

    it('hands a sandbox transfer to the simulated carrier', async () => {
      const call = await callOn('sandbox');
      await expect(
        rpc.request(Subjects.calls.voiceTransfer, null, { callId: call.id, to: TRANSFER_TO, reason: 'x' }),
      ).resolves.toEqual({ transferred: true });
      expect(sandbox.transfers).toContainEqual({ callId: call.id, to: TRANSFER_TO });
      expect(await transferredEvents(call.id)).toHaveLength(1);
    });
  });

  describe('calls.voice.handoff', () => {
    const BILLING = randomUUID();
    const handoffs = [
      {
        name: 'billing',
        description: 'Bills',
        agentId: BILLING,
        contextMode: 'full' as const,
        lastTurns: null,
        variables: null,
      },
    ];

    it('refuses an agent the call’s agent does not hand off to, and an id that is none', async () => {
      const call = await callOn('carrier_b');
      await expect(
        rpc.request(Subjects.calls.voiceHandoff, null, { callId: call.id, agentId: BILLING, reason: 'x' }),
      ).rejects.toMatchObject({ code: 'FORBIDDEN' });
      await expect(
        rpc.request(Subjects.calls.voiceHandoff, null, { callId: call.id, agentId: 'billing', reason: 'x' }),
      ).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
      expect((await sessionOf(call.id)).segments).toEqual([]);
    });

    it('refuses an ended call, and one handed off as often as a call may be', async () => {
      const ended = await callOn('carrier_b', 'completed', { handoffs });
      await expect(
        rpc.request(Subjects.calls.voiceHandoff, null, { callId: ended.id, agentId: BILLING, reason: 'x' }),
      ).rejects.toMatchObject({ code: 'INVALID_STATE' });
      const looping = await callOn('carrier_b', 'in_progress', { handoffs });
      const segment = {
        agent_id: BILLING,
        agent_name: 'Billing',
        started_at: new Date().toISOString(),
        ended_at: null,
        handoff_reason: 'again',
      };
      await dataSource.query(`UPDATE calls.call_sessions SET segments = $2::jsonb WHERE call_id = $1`, [
        looping.id,
        JSON.stringify(Array.from({ length: 11 }, () => segment)),
      ]);
      await expect(
        rpc.request(Subjects.calls.voiceHandoff, null, { callId: looping.id, agentId: BILLING, reason: 'x' }),
      ).rejects.toMatchObject({ code: 'LIMIT_REACHED' });
    });
  });

  describe('calls.voice.hangup', () => {
    it('hangs up through the carrier and keeps the first reason for the end', async () => {
      const call = await callOn('carrier_b');
      api.take();
      await rpc.request(Subjects.calls.voiceHangup, null, { callId: call.id, reason: 'agent_ended_call' });
      await rpc.request(Subjects.calls.voiceHangup, null, {
        callId: call.id,
        reason: 'max_call_duration_reached',
      });
      const sent = api.take();
      expect(sent).toHaveLength(2);
      expect(sent[0]).toMatchObject({
        method: 'POST',
        path: `/2010-04-01/Accounts/${CARRIER_B.account_sid}/Calls/${call.providerCallId}.json`,
        body: 'Status=completed',
      });
      const stored = await callOf(call.id);
      expect(stored.endRequestedReason).toBe('agent_ended_call');
      expect(stored.endRequestedAt).not.toBeNull();
    });

    it('only names the reason of a call that has already ended, when it has none', async () => {
      const call = await callOn('carrier_a', 'completed');
      api.take();
      await rpc.request(Subjects.calls.voiceHangup, null, { callId: call.id, reason: 'stt_provider_failed' });
      await rpc.request(Subjects.calls.voiceHangup, null, { callId: call.id, reason: 'agent_ended_call' });
      expect(api.take()).toEqual([]);
      expect((await callOf(call.id)).endCallReason).toBe('stt_provider_failed');
    });

    it('refuses a reason that is not a snake_case word', async () => {
      const call = await callOn('sandbox');
      await expect(
        rpc.request(Subjects.calls.voiceHangup, null, { callId: call.id, reason: 'Bye <now>' }),
      ).rejects.toMatchObject({ code: ErrorCode.VALIDATION_ERROR });
    });
  });

  describe('calls.voice.send_dtmf', () => {
    const send = (callId: string, digits: unknown) =>
      rpc.request(Subjects.calls.voiceSendDtmf, null, { callId, digits: digits as string });

    it("sends the keys on a carrier_a call's answered leg through its DTMF request", async () => {
      const call = await callOn('carrier_a', 'in_progress', { sendDtmfEnabled: true });
      api.take();
      await expect(send(call.id, '2w#')).resolves.toEqual({ sent: true });
      const [sent] = api.take();
      expect(sent).toMatchObject({
        method: 'POST',
        path: `/v1/Account/${CARRIER_A.auth_id}/Call/${call.carrierLegId}/DTMF/`,
      });
      expect(JSON.parse(sent.body)).toEqual({ digits: '2w#', leg: 'aleg' });
    });

    it('answers false, asking no carrier, for an ended call or a carrier without the request', async () => {
      const ended = await callOn('carrier_a', 'completed', { sendDtmfEnabled: true });
      const onB = await callOn('carrier_b', 'in_progress', { sendDtmfEnabled: true });
      api.take();
      await expect(send(ended.id, '1')).resolves.toEqual({ sent: false });
      await expect(send(onB.id, '1')).resolves.toEqual({ sent: false });
      expect(api.take()).toEqual([]);
      const refused = await callOn('carrier_a', 'in_progress', { sendDtmfEnabled: true });
      api.status = 500;
      try {
        await expect(send(refused.id, '1')).resolves.toEqual({ sent: false });
      } finally {
        api.status = 200;
      }
    });

    it('refuses keys for an agent without send_dtmf, and digits that are no keys', async () => {
      const off = await callOn('carrier_a');
      const on = await callOn('carrier_a', 'in_progress', { sendDtmfEnabled: true });
      api.take();
      await expect(send(off.id, '1')).rejects.toMatchObject({ code: ErrorCode.FORBIDDEN });
      for (const digits of ['', '1x', '1'.repeat(33), 5, null])
        await expect(send(on.id, digits)).rejects.toMatchObject({ code: ErrorCode.VALIDATION_ERROR });
      expect(api.take()).toEqual([]);
    });
  });

  describe('calls.voice.opt_out', () => {
    it("lists the callee's number once (reason opt_out, source call), and answers the entry again on a repeat", async () => {
      const call = await callOn('sandbox');
      const first = await rpc.request(Subjects.calls.voiceOptOut, null, { callId: call.id });
      expect(first).toEqual({ number: call.toNumber, doNotCallId: expect.stringMatching(/^dnc_/) });
      expect(await rpc.request(Subjects.calls.voiceOptOut, partnerId, { callId: call.id })).toEqual(first);
      const rows = (await dataSource.query(
        `SELECT kind, value, reason, source, note FROM calls.do_not_call WHERE partner_id = $1 AND value = $2`,
        [partnerId, call.toNumber],
      )) as Record<string, string>[];
      expect(rows).toEqual([
        {
          kind: 'number',
          value: call.toNumber,
          reason: 'opt_out',
          source: 'call',
          note: `asked during call ${call.id}`,
        },
      ]);
    });

    it("is 404 for another partner's call", async () => {
      const call = await callOn('sandbox');
      await expect(
        rpc.request(Subjects.calls.voiceOptOut, randomUUID(), { callId: call.id }),
      ).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
    });
  });

  describe('calls.voice.ended', () => {
    it("stores the conversation's recording and end reason once", async () => {
      const call = await callOn('sandbox', 'completed');
      const storageKey = recordingKey(partnerId, call.id);
      const report = {
        callId: call.id,
        endCallReason: 'agent_ended_call',
        mediaSeconds: 41.2,
        recording: { storageKey, durationSeconds: 41.2 },
      };
      await rpc.request(Subjects.calls.voiceEnded, null, report);
      await rpc.request(Subjects.calls.voiceEnded, null, {
        ...report,
        endCallReason: 'user_idle',
        recording: { storageKey, durationSeconds: 3 },
      });
      const session = await sessionOf(call.id);
      expect(session.recordingKey).toBe(storageKey);
      expect(session.recordingDurationSecs).toBe(41);
      expect(session.mediaStream).toBe('ended');
      expect((await callOf(call.id)).endCallReason).toBe('agent_ended_call');
    });

    it('leaves a live call to the carrier, keeping the reason for its end', async () => {
      const call = await callOn('carrier_b');
      await rpc.request(Subjects.calls.voiceEnded, null, {
        callId: call.id,
        endCallReason: 'llm_provider_failed',
        mediaSeconds: 5,
        recording: null,
      });
      const stored = await callOf(call.id);
      expect(stored.status).toBe('in_progress');
      expect(stored.endCallReason).toBeNull();
      expect(stored.endRequestedReason).toBe('llm_provider_failed');
    });

    it('keeps the platform-paid speech providers as a set over every report, and shows them on the call', async () => {
      const call = await callOn('sandbox', 'completed');
      const report = { callId: call.id, endCallReason: null, mediaSeconds: 12, recording: null };
      await rpc.request(Subjects.calls.voiceEnded, null, {
        ...report,
        platformPaidSpeech: ['elevenlabs', 'deepgram', 'elevenlabs'],
      });
      expect((await callOf(call.id)).platformSpeechProviders).toEqual(['deepgram', 'elevenlabs']);
      // A retried report changes nothing; the report of a stream that moved to another replica adds its own.
      await rpc.request(Subjects.calls.voiceEnded, null, { ...report, platformPaidSpeech: ['elevenlabs'] });
      await rpc.request(Subjects.calls.voiceEnded, null, { ...report, platformPaidSpeech: ['assemblyai'] });
      // A report naming none, or from a replica older than the field, takes nothing away.
      await rpc.request(Subjects.calls.voiceEnded, null, { ...report, platformPaidSpeech: [] });
      await rpc.request(Subjects.calls.voiceEnded, null, report);
      const stored = await callOf(call.id);
      expect(stored.platformSpeechProviders).toEqual(['assemblyai', 'deepgram', 'elevenlabs']);
      expect(toCallDto(stored, await sessionOf(call.id), null).platform_speech_providers).toEqual([
        'assemblyai',
        'deepgram',
        'elevenlabs',
      ]);
    });

    it('shows no platform-paid speech for a call whose report names none, or that had no report', async () => {
      const offline = await callOn('sandbox', 'completed');
      await rpc.request(Subjects.calls.voiceEnded, null, {
        callId: offline.id,
        endCallReason: 'agent_ended_call',
        mediaSeconds: 8,
        recording: null,
        platformPaidSpeech: [],
      });
      const unreported = await callOn('sandbox', 'completed');
      for (const id of [offline.id, unreported.id]) {
        const stored = await callOf(id);
        expect(stored.platformSpeechProviders).toEqual([]);
        expect(toCallDto(stored, await sessionOf(id), null).platform_speech_providers).toEqual([]);
      }
    });

    it('refuses a report naming what is not a cloud speech provider, keeping nothing of it', async () => {
      const call = await callOn('sandbox', 'completed');
      for (const platformPaidSpeech of [
        ['offline'],
        ['openai', 'nope'],
        'openai',
        [42],
        [...SPEECH_PROVIDERS, 'openai'],
      ]) {
        await expect(
          rpc.request(Subjects.calls.voiceEnded, null, {
            callId: call.id,
            endCallReason: 'agent_ended_call',
            mediaSeconds: 3,
            recording: null,
            platformPaidSpeech: platformPaidSpeech as string[],
          }),
        ).rejects.toMatchObject({
          code: ErrorCode.VALIDATION_ERROR,
          details: [expect.objectContaining({ field: 'platformPaidSpeech' })],
        });
      }
      const stored = await callOf(call.id);
      expect(stored.platformSpeechProviders).toEqual([]);
      expect((await sessionOf(call.id)).mediaStream).toBeNull();
    });

    it('keeps whose key answered each model as a set over every report, and the call says it per model', async () => {
      const call = await callOn('sandbox', 'completed');
      const providers = { stt: 'offline', tts: 'offline' };
      for (const [seq, llm, model, tokens] of [
        [0, 'groq', 'llama-3.1-8b-instant', 100],
        [1, 'anthropic', 'claude-3-5-haiku-latest', 200],
        [2, 'custom', 'partner-model', 300],
        [3, 'platform', 'gpt-4o-mini', 400],
        [4, 'offline', 'offline', 0],
      ] as const) {
        await rpc.request(Subjects.calls.voiceTranscript, partnerId, {
          callId: call.id,
          role: 'bot',
          content: `Line ${seq}`,
          atMs: seq * 100,
          callSeconds: seq / 10,
          providers: { ...providers, llm, llm_model: model } as never,
          ...(tokens ? { usage: { input_tokens: tokens, output_tokens: tokens / 10 } } : {}),
        });
      }
      const report = { callId: call.id, endCallReason: null, mediaSeconds: 12, recording: null };
      await rpc.request(Subjects.calls.voiceEnded, null, {
        ...report,
        modelPaidBy: [
          { provider: 'groq', model: 'llama-3.1-8b-instant', paidBy: 'platform' },
          { provider: 'platform', model: 'gpt-4o-mini', paidBy: null },
        ],
      });
      // A retried report changes nothing; another stream's report adds its own; none takes anything away.
      await rpc.request(Subjects.calls.voiceEnded, null, {
        ...report,
        modelPaidBy: [{ paidBy: 'platform', model: 'llama-3.1-8b-instant', provider: 'groq' }],
      });
      await rpc.request(Subjects.calls.voiceEnded, null, {
        ...report,
        modelPaidBy: [{ provider: 'anthropic', model: 'claude-3-5-haiku-latest', paidBy: 'account' }],
      });
      await rpc.request(Subjects.calls.voiceEnded, null, { ...report, modelPaidBy: [] });
      await rpc.request(Subjects.calls.voiceEnded, null, report);
      const stored = await callOf(call.id);
      expect(stored.modelPaidBy).toHaveLength(3);
      expect(toCallDto(stored, await sessionOf(call.id), null).model_usage).toEqual([
        {
          provider: 'groq',
          model: 'llama-3.1-8b-instant',
          paid_by: 'platform',
          input_tokens: 100,
          output_tokens: 10,
          replies: 1,
        },
        {
          provider: 'anthropic',
          model: 'claude-3-5-haiku-latest',
          paid_by: 'account',
          input_tokens: 200,
          output_tokens: 20,
          replies: 1,
        },
        // The account's own server is the account's, the deployment's default and the offline engine nobody's.
        {
          provider: 'custom',
          model: 'partner-model',
          paid_by: 'account',
          input_tokens: 300,
          output_tokens: 30,
          replies: 1,
        },
        {
          provider: 'platform',
          model: 'gpt-4o-mini',
          paid_by: null,
          input_tokens: 400,
          output_tokens: 40,
          replies: 1,
        },
        {
          provider: 'offline',
          model: 'offline',
          paid_by: null,
          input_tokens: 0,
          output_tokens: 0,
          replies: 1,
        },
      ]);
    });

    it('refuses a report naming a model it cannot take, keeping nothing of it', async () => {
      const call = await callOn('sandbox', 'completed');
      const good = { provider: 'groq', model: 'llama-3.1-8b-instant', paidBy: 'platform' };
      for (const modelPaidBy of [
        [{ ...good, provider: 'secondary' }],
        [{ ...good, paidBy: 'partner' }],
        [{ ...good, model: '' }],
        [{ ...good, model: 'm'.repeat(129) }],
        [{ provider: 'groq', model: 'llama-3.1-8b-instant' }],
        [good, 'groq'],
        'groq',
        Array.from({ length: 65 }, (_, i) => ({ ...good, model: `m${i}` })),
      ]) {
        await expect(
          rpc.request(Subjects.calls.voiceEnded, null, {
            callId: call.id,
            endCallReason: 'agent_ended_call',
            mediaSeconds: 3,
            recording: null,
            modelPaidBy: modelPaidBy as never,
          }),
        ).rejects.toMatchObject({
          code: ErrorCode.VALIDATION_ERROR,
          details: [expect.objectContaining({ field: 'modelPaidBy' })],
        });
      }
      expect((await callOf(call.id)).modelPaidBy).toEqual([]);
      expect((await sessionOf(call.id)).mediaStream).toBeNull();
    });

    it("carries the providers on the call's charge, which waits for the report while the stream is live", async () => {
      const PRICES = { CALL_PRICE_PER_MINUTE_PAISE: 600, TEST_CALL_PRICE_PER_MINUTE_PAISE: 100 };
      const unbilled = new ListUnbilledCharges(dataSource);
      const chargeOf = async (callId: string) =>
        (await unbilled.execute(partnerId, { limit: 500 })).charges.find((c) => c.callId === callId);
      // The carrier ended the call and its charge was fixed; the voice service has not reported yet.
      const call = await saveCall(
        dataSource,
        {
          partnerId,
          connectionId: connections.carrier_b!,
          provider: 'carrier_b',
          status: 'completed',
          billDurationSeconds: 42,
          durationSeconds: 42,
          startedAt: new Date(Date.now() - 42_000),
          endedAt: new Date(),
        },
        { mediaStream: 'live', voiceReplicaId: VOICE_REPLICA },
      );
      await dataSource.transaction((em) => recordCallCharge(em, call, PRICES));
      expect(await chargeOf(call.id)).toBeUndefined();
      await rpc.request(Subjects.calls.voiceTranscript, partnerId, {
        callId: call.id,
        role: 'bot',
        content: 'Your order ships today.',
        atMs: 2_000,
        callSeconds: 2,
        providers: { stt: 'openai', llm: 'openai', llm_model: 'gpt-4o-mini', tts: 'cartesia' },
        usage: { input_tokens: 1234, output_tokens: 56 },
      });
      await rpc.request(Subjects.calls.voiceEnded, null, {
        callId: call.id,
        endCallReason: null,
        mediaSeconds: 41,
        recording: null,
        platformPaidSpeech: ['openai', 'cartesia'],
        modelPaidBy: [{ provider: 'openai', model: 'gpt-4o-mini', paidBy: 'platform' }],
      });
      expect(await chargeOf(call.id)).toEqual({
        callId: call.id,
        sessionId: call.sessionId,
        billSeconds: 42,
        amountPaise: 420,
        billingRate: 'standard',
        agentId: call.agentId,
        campaignId: null,
        projectId: call.projectId,
        browserSessionId: null,
        platformPaidSpeech: ['cartesia', 'openai'],
        // The model's tokens travel beside the minutes (they are within the minute price, not priced).
        modelUsage: [
          {
            provider: 'openai',
            model: 'gpt-4o-mini',
            paid_by: 'platform',
            input_tokens: 1234,
            output_tokens: 56,
            replies: 1,
          },
        ],
      });

      // A report that never comes holds the charge for VOICE_REPORT_WAIT_SECS at most: billing goes on without it.
      const silent = await saveCall(
        dataSource,
        {
          partnerId,
          connectionId: connections.carrier_b!,
          provider: 'carrier_b',
          status: 'completed',
          billDurationSeconds: 5,
          durationSeconds: 5,
          endedAt: new Date(),
        },
        { mediaStream: 'live', voiceReplicaId: VOICE_REPLICA },
      );
      await dataSource.transaction((em) => recordCallCharge(em, silent, PRICES));
      expect(await chargeOf(silent.id)).toBeUndefined();
      await dataSource.query(
        `UPDATE ${tableOf(dataSource, 'call_charges')} SET created_at = now() - make_interval(secs => $2)
          WHERE call_id = $1`,
        [silent.id, VOICE_REPORT_WAIT_SECS + 1],
      );
      expect(await chargeOf(silent.id)).toMatchObject({
        billSeconds: 5,
        platformPaidSpeech: [],
        modelUsage: [],
      });
    });

    it("refuses a recording stored under another call's key", async () => {
      const call = await callOn('sandbox', 'completed');
      await expect(
        rpc.request(Subjects.calls.voiceEnded, null, {
          callId: call.id,
          endCallReason: null,
          mediaSeconds: 1,
          recording: { storageKey: recordingKey(partnerId, randomUUID()), durationSeconds: 1 },
        }),
      ).rejects.toMatchObject({ code: ErrorCode.VALIDATION_ERROR });
      expect((await sessionOf(call.id)).recordingKey).toBeNull();
    });
  });
});
