// calls.voice.attach / hangup / ended for browser sessions, against real Postgres and NATS: what the voice
// service's browser transport asks of the calls service.
import { DynamicModule, INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import {
  AgentSnapshot,
  BROWSER_REFUSAL_DETAIL_FIELD,
  ErrorCode,
  SessionCompletedData,
  Subjects,
} from '@vap/messages';
import { verifyStreamToken } from '@vap/media';
import {
  MessagingModule,
  NatsConnectionService,
  NatsRpcServer,
  OutboxService,
  RpcClient,
} from '@vap/messaging';
import { runMigrations } from '@vap/persistence';
import { mediaStreamTokenKey } from '@vap/secrets';
import { createTestDatabase, deleteJetStreamByPrefix, TestDatabase } from '@vap/testing';
import { Call } from '../calls/entities/call.entity';
import { CallSession } from '../calls/entities/call-session.entity';
import { CARRIER_ADAPTERS } from '../carriers/carrier-adapter';
import { CarrierRegistry } from '../carriers/carrier-registry';
import { CallbackUrls } from '../carriers/callback-urls';
import { TransferLegs } from '../carriers/transfer-legs/transfer-legs.service';
import { CallsConfig } from '../config/calls.config';
import { TelephonyConfig } from '../config/telephony.config';
import { callsDataSourceOptions } from '../database/data-source';
import { TranscriptService } from '../media-sessions/transcript.service';
import { VOICE_COMMAND_USE_CASES } from '../media-sessions/usecases';
import { VoiceHandlers } from '../media-sessions/voice.handlers';
import { PostCallProcessor } from '../post-call/post-call-processor.service';
import { DoNotCallService } from '../telephony/contact-policy/do-not-call.service';
import { saveCall } from '../testing/call-rows';
import { BrowserTransport } from '../carriers/browser/browser-transport';
import { CallTransports, DIRECT_TRANSPORTS } from '../carriers/call-transport';
import { CallProgressService } from '../progress/call-progress.service';
import { BrowserSessionLinks } from './browser-session-links';
import { BrowserSession } from '../carriers/browser/entities/browser-session.entity';

jest.setTimeout(60_000);

const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const NATS_URL = process.env.NATS_URL || 'nats://127.0.0.1:4222';
const SECRETS_KEY = randomBytes(32);
const ORIGIN = 'https://app.example.test';

@Module({})
class BrowserAttachTestModule {}

describe('browser sessions on calls.voice.*', () => {
  let db: TestDatabase;
  let app: INestApplication;
  let rpc: RpcClient;
  let dataSource: DataSource;
  let links: BrowserSessionLinks;
  let lifecycle: BrowserTransport;
  const prefix = `t_${randomBytes(5).toString('hex')}`;
  const partnerId = randomUUID();
  const replicaId = randomUUID();

  beforeAll(async () => {
    db = await createTestDatabase(SERVER_URL, 'vap_calls_browser_sessions');
    const config = Object.assign(new CallsConfig(), {
      DATABASE_URL: db.url,
      PUBLIC_BASE_URL: 'https://api.example.test',
      MEDIA_PUBLIC_URL: 'https://media.example.test',
      BROWSER_SESSION_TOKEN_TTL_MS: 60_000,
    });
    const telephony = Object.assign(new TelephonyConfig(), { SECRETS_KEY: SECRETS_KEY.toString('hex') });
    await runMigrations(callsDataSourceOptions(config));
    const module: DynamicModule = {
      module: BrowserAttachTestModule,
      imports: [
        TypeOrmModule.forRoot({ ...callsDataSourceOptions(config), retryAttempts: 0 }),
        MessagingModule.forRoot({ serviceName: 'calls', url: NATS_URL, subjectPrefix: prefix }),
      ],
      controllers: [VoiceHandlers],
      providers: [
        { provide: CallsConfig, useValue: config },
        { provide: TelephonyConfig, useValue: telephony },
        // No carrier: a browser session must never reach one.
        { provide: CARRIER_ADAPTERS, useValue: [] },
        CarrierRegistry,
        // Warm transfers' legs: the attach use case asks it about consult streams, which a browser never opens.
        CallbackUrls,
        TransferLegs,
        TranscriptService,
        ...VOICE_COMMAND_USE_CASES,
        DoNotCallService,
        CallProgressService,
        BrowserTransport,
        { provide: DIRECT_TRANSPORTS, inject: [BrowserTransport], useFactory: (b: BrowserTransport) => [b] },
        CallTransports,
        BrowserSessionLinks,
      ],
    };
    app = await NestFactory.create(module, { logger: false, abortOnError: false });
    app.connectMicroservice({ strategy: new NatsRpcServer(app.get(NatsConnectionService)) });
    await app.init();
    await app.startAllMicroservices();
    rpc = app.get(RpcClient);
    dataSource = app.get(DataSource);
    links = app.get(BrowserSessionLinks);
    lifecycle = app.get(BrowserTransport);
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
    await deleteJetStreamByPrefix(NATS_URL, prefix).catch(() => undefined);
  });

  /** A pending browser session as POST /browser-sessions stores it, and the nonce of its access token. */
  async function pendingSession(expiresInMs = 60_000, owner = partnerId) {
    const call = await saveCall(dataSource, {
      partnerId: owner,
      connectionId: null,
      provider: 'browser',
      kind: 'browser',
      status: 'pending',
      direction: 'inbound',
      fromNumber: 'browser',
      toNumber: 'browser',
      providerCallId: null,
      answeredBy: null,
      startedAt: null,
      variables: { name: 'Ada' },
      agentSettings: { introMessage: 'Hello', prompt: 'Be brief.' } as AgentSnapshot,
    });
    await dataSource.getRepository(BrowserSession).insert({
      callId: call.id,
      partnerId: owner,
      allowedOrigins: [ORIGIN, 'http://localhost:5173'],
      metadata: {},
      customerId: null,
      expiresAt: new Date(Date.now() + expiresInMs),
      expired: false,
    });
    const access = links.access(call.id, Date.now());
    const verified = verifyStreamToken(access.token, mediaStreamTokenKey(SECRETS_KEY), Date.now());
    if (!verified.ok) throw new Error(`token does not verify: ${verified.reason}`);
    expect(verified.claims.callId).toBe(call.id);
    expect(access.connectUrl).toBe(
      `wss://media.example.test/browser/${call.id}?token=${encodeURIComponent(access.token)}`,
    );
    return { call, nonce: verified.claims.nonce, url: access.connectUrl };
  }

  const attach = (callId: string, nonce: string, url: string, origin: string | null) =>
    rpc.request(Subjects.calls.voiceAttach, null, {
      callId,
      carrier: 'browser',
      nonce,
      url,
      headers: origin === null ? {} : { origin, 'user-agent': 'spec' },
      replicaId,
    });

  const callOf = (id: string) => dataSource.getRepository(Call).findOneByOrFail({ id });
  const charges = (id: string) =>
    dataSource.query(`SELECT bill_seconds, amount_paise FROM calls.call_charges WHERE call_id = $1`, [
      id,
    ]) as Promise<{ bill_seconds: number; amount_paise: number }[]>;

  it('answers the context to an allowed origin and makes the session active', async () => {
    const { call, nonce, url } = await pendingSession();
    const context = await attach(call.id, nonce, url, ORIGIN);
    expect(context).toMatchObject({
      callId: call.id,
      partnerId,
      provider: 'browser',
      variables: { name: 'Ada' },
      answeredBy: 'human',
    });
    const active = await callOf(call.id);
    expect(active.status).toBe('in_progress');
    expect(active.startedAt).not.toBeNull();
    const session = await dataSource.getRepository(CallSession).findOneByOrFail({ callId: call.id });
    expect(session).toMatchObject({ mediaStream: 'live', voiceReplicaId: replicaId });
  });

  it('refuses another origin (403, detail origin) and no origin, leaving the token unused', async () => {
    const { call, nonce, url } = await pendingSession();
    for (const origin of ['https://evil.example.test', 'https://app.example.test:8443', null]) {
      await expect(attach(call.id, nonce, url, origin)).rejects.toMatchObject({
        code: ErrorCode.FORBIDDEN,
        details: [
          expect.objectContaining({ field: 'origin' }),
          { field: BROWSER_REFUSAL_DETAIL_FIELD, message: 'origin_not_allowed' },
        ],
      });
    }
    expect((await callOf(call.id)).status).toBe('pending');
    // The refused attempts did not burn the token: the right origin still opens the session.
    await expect(attach(call.id, nonce, url, 'http://localhost:5173')).resolves.toMatchObject({
      callId: call.id,
    });
  });

  it('refuses a reused token (409) and a second stream', async () => {
    const { call, nonce, url } = await pendingSession();
    await attach(call.id, nonce, url, ORIGIN);
    await expect(attach(call.id, nonce, url, ORIGIN)).rejects.toMatchObject({ code: ErrorCode.CONFLICT });
    // A fresh token of an active session: its one stream is taken (409).
    const fresh = verifyStreamToken(
      new URL(links.access(call.id, Date.now()).connectUrl).searchParams.get('token')!,
      mediaStreamTokenKey(SECRETS_KEY),
      Date.now(),
    );
    if (!fresh.ok) throw new Error('token does not verify');
    await expect(attach(call.id, fresh.claims.nonce, url, ORIGIN)).rejects.toMatchObject({
      code: ErrorCode.CONFLICT,
    });
    // The same nonce on another pending session is a replay: 409.
    const other = await pendingSession();
    await expect(attach(other.call.id, nonce, other.url, ORIGIN)).rejects.toMatchObject({
      code: ErrorCode.CONFLICT,
    });
  });

  it('refuses an unknown session and an expired one (404); expiry ends a pending session without charge', async () => {
    await expect(attach(randomUUID(), 'n-unknown', 'wss://x/browser/y', ORIGIN)).rejects.toMatchObject({
      code: ErrorCode.NOT_FOUND,
    });
    const { call, nonce, url } = await pendingSession(-1000);
    await expect(attach(call.id, nonce, url, ORIGIN)).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
    expect(await lifecycle.expire()).toBeGreaterThanOrEqual(1);
    const expired = await callOf(call.id);
    expect(expired).toMatchObject({ status: 'canceled', endCallReason: 'browser_session_expired' });
    expect(await dataSource.getRepository(BrowserSession).findOneByOrFail({ callId: call.id })).toMatchObject(
      {
        expired: true,
      },
    );
    expect(await charges(call.id)).toEqual([]);
    // An expired session cannot be attached any more either.
    await expect(attach(call.id, nonce, url, ORIGIN)).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
  });

  const refusalOf = async (id: string) => {
    const row = await dataSource.getRepository(BrowserSession).findOneByOrFail({ callId: id });
    return { reason: row.lastRefusalReason, origin: row.lastRefusalOrigin, at: row.lastRefusalAt };
  };
  const refusalDetail = (reason: string) =>
    expect.arrayContaining([{ field: BROWSER_REFUSAL_DETAIL_FIELD, message: reason }]);

  it('records each refused attempt as the last refusal, names it in the detail, and overwrites the one before', async () => {
    const { call, nonce, url } = await pendingSession();
    expect(await refusalOf(call.id)).toEqual({ reason: null, origin: null, at: null });
    await expect(attach(call.id, nonce, url, 'https://evil.example.test')).rejects.toMatchObject({
      code: ErrorCode.FORBIDDEN,
      details: refusalDetail('origin_not_allowed'),
    });
    const first = await refusalOf(call.id);
    expect(first).toMatchObject({ reason: 'origin_not_allowed', origin: 'https://evil.example.test' });
    expect(first.at!.getTime()).toBeGreaterThan(Date.now() - 10_000);
    // No Origin at all: recorded as such.
    await expect(attach(call.id, nonce, url, null)).rejects.toMatchObject({ code: ErrorCode.FORBIDDEN });
    expect(await refusalOf(call.id)).toMatchObject({ reason: 'origin_not_allowed', origin: null });
    // The token opens the session; a second attempt with it is token_used, recorded with its origin.
    await attach(call.id, nonce, url, ORIGIN);
    await expect(attach(call.id, nonce, url, ORIGIN)).rejects.toMatchObject({
      code: ErrorCode.CONFLICT,
      details: refusalDetail('token_used'),
    });
    expect(await refusalOf(call.id)).toMatchObject({ reason: 'token_used', origin: ORIGIN });
    // Once the session is over, an attempt is session_ended.
    await rpc.request(Subjects.calls.voiceHangup, null, { callId: call.id, reason: 'user_ended_session' });
    await expect(attach(call.id, 'n-after-end', url, ORIGIN)).rejects.toMatchObject({
      code: ErrorCode.NOT_FOUND,
      details: refusalDetail('session_ended'),
    });
    expect(await refusalOf(call.id)).toMatchObject({ reason: 'session_ended', origin: ORIGIN });
    // A page the session does not allow learns only that, even of an ended session.
    await expect(attach(call.id, 'n-evil', url, 'https://evil.example.test')).rejects.toMatchObject({
      details: refusalDetail('origin_not_allowed'),
    });
  });

  it('refuses a suspended account as account_restricted, recorded, but a page on another origin learns only that', async () => {
    const suspended = randomUUID();
    await dataSource.query(
      `INSERT INTO calls.partner_standing (partner_id, status, version) VALUES ($1, 'suspended', 1)`,
      [suspended],
    );
    const { call, nonce, url } = await pendingSession(60_000, suspended);
    await expect(attach(call.id, nonce, url, 'https://evil.example.test')).rejects.toMatchObject({
      details: refusalDetail('origin_not_allowed'),
    });
    await expect(attach(call.id, nonce, url, ORIGIN)).rejects.toMatchObject({
      code: ErrorCode.FORBIDDEN,
      details: refusalDetail('account_restricted'),
    });
    expect(await refusalOf(call.id)).toMatchObject({ reason: 'account_restricted', origin: ORIGIN });
    expect((await callOf(call.id)).status).toBe('pending');
  });

  it('a pending session past its expiry is refused as token_expired, recorded', async () => {
    const { call, nonce, url } = await pendingSession(-1000);
    await expect(attach(call.id, nonce, url, ORIGIN)).rejects.toMatchObject({
      code: ErrorCode.NOT_FOUND,
      details: refusalDetail('token_expired'),
    });
    expect(await refusalOf(call.id)).toMatchObject({ reason: 'token_expired', origin: ORIGIN });
  });

  it('calls.voice.browser_refused records an expired token or a full replica; a garbage id writes nothing', async () => {
    const { call } = await pendingSession();
    await rpc.request(Subjects.calls.voiceBrowserRefused, null, {
      sessionId: call.id,
      reason: 'capacity',
      origin: `https://${'x'.repeat(400)}.example.test`,
    });
    const recorded = await refusalOf(call.id);
    expect(recorded.reason).toBe('capacity');
    // Kept to 255 characters.
    expect(recorded.origin).toHaveLength(255);
    await rpc.request(Subjects.calls.voiceBrowserRefused, null, {
      sessionId: call.id,
      reason: 'token_expired',
      origin: null,
    });
    expect(await refusalOf(call.id)).toMatchObject({ reason: 'token_expired', origin: null });
    // Not a uuid, or no session: answered, nothing written.
    for (const sessionId of ['not-a-uuid', randomUUID()]) {
      await expect(
        rpc.request(Subjects.calls.voiceBrowserRefused, null, {
          sessionId,
          reason: 'capacity',
          origin: null,
        }),
      ).resolves.toEqual({ ok: true });
    }
    // Only the two reasons the voice service decides alone.
    await expect(
      rpc.request(Subjects.calls.voiceBrowserRefused, null, {
        sessionId: call.id,
        reason: 'origin_not_allowed' as never,
        origin: null,
      }),
    ).rejects.toMatchObject({ code: ErrorCode.VALIDATION_ERROR });
    expect(await refusalOf(call.id)).toMatchObject({ reason: 'token_expired' });
  });

  it('a phone call is not attached as a browser session', async () => {
    const phone = await saveCall(dataSource, { partnerId, connectionId: null, provider: 'sandbox' });
    await expect(attach(phone.id, 'n-phone', 'wss://x', ORIGIN)).rejects.toMatchObject({
      code: ErrorCode.NOT_FOUND,
    });
  });

  it('ends at the hang-up report with one charge per connected second; session.completed says browser', async () => {
    const { call, nonce, url } = await pendingSession();
    await attach(call.id, nonce, url, ORIGIN);
    // 30 connected seconds.
    await dataSource.query(
      `UPDATE calls.calls SET started_at = now() - interval '30 seconds' WHERE id = $1`,
      [call.id],
    );
    // The agent answered once on the account's own Anthropic key.
    await rpc.request(Subjects.calls.voiceTranscript, null, {
      callId: call.id,
      role: 'bot',
      content: 'Happy to help.',
      atMs: 2_000,
      callSeconds: 2,
      providers: { stt: 'offline', llm: 'anthropic', llm_model: 'claude-3-5-haiku-latest', tts: 'offline' },
      usage: { input_tokens: 420, output_tokens: 9 },
    });
    await rpc.request(Subjects.calls.voiceHangup, null, { callId: call.id, reason: 'user_ended_session' });
    const ended = await callOf(call.id);
    expect(ended).toMatchObject({
      status: 'completed',
      endCallReason: 'user_ended_session',
      durationSeconds: 30,
      billDurationSeconds: 30,
    });
    expect(ended.endedAt).not.toBeNull();
    // INR 4.00 per minute: 30 s = 200 paise, once.
    expect(await charges(call.id)).toEqual([{ bill_seconds: 30, amount_paise: 200 }]);
    // The stream's end report follows: nothing is charged again, the session stays completed.
    await rpc.request(Subjects.calls.voiceEnded, null, {
      callId: call.id,
      endCallReason: 'client_closed',
      mediaSeconds: 30,
      recording: null,
      modelPaidBy: [{ provider: 'anthropic', model: 'claude-3-5-haiku-latest', paidBy: 'account' }],
    });
    await rpc.request(Subjects.calls.voiceHangup, null, { callId: call.id, reason: 'agent_ended_call' });
    expect(await charges(call.id)).toEqual([{ bill_seconds: 30, amount_paise: 200 }]);
    expect(await callOf(call.id)).toMatchObject({ status: 'completed', endCallReason: 'user_ended_session' });
    const statusEvents = (await dataSource.query(
      `SELECT count(*)::int AS n FROM calls.outbox WHERE subject = $1 AND event->'data'->>'call_id' = $2`,
      ['events.call.status_updated', call.id],
    )) as { n: number }[];
    expect(statusEvents[0].n).toBe(0);

    const processor = new PostCallProcessor(
      dataSource,
      app.get(OutboxService),
      { run: async () => null } as never,
      { run: async () => null } as never,
      { signedUrl: async () => ({ url: 'unused', expiresAt: new Date() }) } as never,
      { copy: async () => null } as never,
      { resolve: async () => null } as never,
      { chainFor: () => null } as never,
    );
    await processor.process(call.id);
    const [completed] = (await dataSource.query(
      `SELECT event FROM calls.outbox WHERE subject = $1 AND event->'data'->>'call_id' = $2`,
      ['events.session.completed', call.id],
    )) as { event: { data: SessionCompletedData } }[];
    expect(completed.event.data).toMatchObject({
      source: 'browser',
      browser_session_id: call.id,
      status: 'completed',
      duration_seconds: 30,
      credits_used_paise: 200,
      // The minutes are the charge; the model's tokens ride beside it.
      model_usage: [
        {
          provider: 'anthropic',
          model: 'claude-3-5-haiku-latest',
          paid_by: 'account',
          input_tokens: 420,
          output_tokens: 9,
          replies: 1,
        },
      ],
    });
  });

  it('ends at the stream-closed report alone, charged once', async () => {
    const { call, nonce, url } = await pendingSession();
    await attach(call.id, nonce, url, ORIGIN);
    await dataSource.query(
      `UPDATE calls.calls SET started_at = now() - interval '12 seconds' WHERE id = $1`,
      [call.id],
    );
    await rpc.request(Subjects.calls.voiceEnded, null, {
      callId: call.id,
      endCallReason: 'client_closed',
      mediaSeconds: 30,
      recording: null,
    });
    expect(await callOf(call.id)).toMatchObject({ status: 'completed', endCallReason: 'client_closed' });
    expect(await charges(call.id)).toEqual([{ bill_seconds: 12, amount_paise: 80 }]);
    const session = await dataSource.getRepository(CallSession).findOneByOrFail({ callId: call.id });
    expect(session.mediaStream).toBe('ended');
  });
});
