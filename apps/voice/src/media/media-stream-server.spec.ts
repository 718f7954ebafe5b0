import 'reflect-metadata';
import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, NatsConnection } from 'nats';
import { WebSocket } from 'ws';
import {
  AppError,
  BAD_ORIGIN_DETAIL_FIELD,
  ErrorCode,
  RpcReply,
  RpcRequest,
  STREAM_TAKEN_DETAIL,
  VoiceAttachRequest,
  VoiceBrowserRefusedRequest,
  VoiceCallContext,
  VoiceEndedRequest,
} from '@vap/messages';
import { issueStreamToken, STREAM_CLOSE_REPLICA_FULL } from '@vap/media';
import { validateConfigs, withServiceConfigs } from '@vap/runtime';
import { mediaStreamTokenKey, streamTokenKeyOf } from '@vap/secrets';
import { BlobStoreConfig } from '@vap/storage';
import { AppModule } from '../app.module';
import { agentSettings } from '../conversation/testing/conversation-harness';
import { VoiceConfig } from '../config/voice.config';
import { ReplicaDrain } from '../drain/replica-drain';

const NATS_URL = process.env.NATS_URL || 'nats://127.0.0.1:4222';
const ORIGIN = 'https://app.example.test';

/** The calls (and agents) service as the voice app sees it over NATS: attach, voice lookup, hang-up, ended. */
class FakeCallsService {
  readonly attached: VoiceAttachRequest[] = [];
  readonly ended: VoiceEndedRequest[] = [];
  readonly browserRefusals: VoiceBrowserRefusedRequest[] = [];
  /** Calls the fake answers as live; others are 404. Nonces already used are 409, as is a call's second stream. */
  readonly liveCalls = new Set<string>();
  /** Browser sessions (carrier `browser`) and the origins each allows. */
  readonly browserSessions = new Map<string, string[]>();
  /** Calls whose agent says an intro. */
  readonly intros = new Map<string, string>();
  /** Attaches answered as a calls service that failed or died would (502), before any is taken. */
  unavailableAttaches = 0;
  private readonly usedNonces = new Set<string>();
  private readonly streamed = new Set<string>();

  constructor(
    private readonly nc: NatsConnection,
    private readonly prefix: string,
  ) {}

  start(): void {
    this.answer('calls.voice.attach', (req: VoiceAttachRequest) => {
      this.attached.push(req);
      if (this.unavailableAttaches > 0) {
        this.unavailableAttaches--;
        throw AppError.downstream('calls replica gone');
      }
      const origins = this.browserSessions.get(req.callId);
      if (req.carrier === 'browser') {
        if (!origins) throw AppError.notFound('browser session');
        if (!origins.includes(req.headers.origin ?? '')) {
          throw new AppError(ErrorCode.FORBIDDEN, 'origin not allowed', {
            details: [{ field: BAD_ORIGIN_DETAIL_FIELD, message: 'not one of the allowed origins' }],
          });
        }
      } else if (!this.liveCalls.has(req.callId)) throw AppError.notFound('call');
      if (this.usedNonces.has(req.nonce)) throw AppError.conflict('stream token already used');
      if (this.streamed.has(req.callId)) {
        throw new AppError(ErrorCode.CONFLICT, 'the call has its stream', { details: [STREAM_TAKEN_DETAIL] });
      }
      this.usedNonces.add(req.nonce);
      this.streamed.add(req.callId);
      return context(req.callId, req.carrier, this.intros.get(req.callId));
    });
    this.answer('calls.voice.browser_refused', (req: VoiceBrowserRefusedRequest) => {
      this.browserRefusals.push(req);
      return { ok: true };
    });
    this.answer('agents.voice_configuration.list', () => ({ voice_configurations: [] }));
    this.answer('calls.voice.hangup', () => ({ ok: true }));
    this.answer('calls.voice.transcript', () => ({ ok: true }));
    this.answer('calls.voice.ended', (req: VoiceEndedRequest) => {
      this.ended.push(req);
      return { ok: true };
    });
  }

  private answer<T>(subject: string, handle: (data: T) => unknown): void {
    this.nc.subscribe(`${this.prefix}.${subject}`, {
      callback: (_err, msg) => {
        const request = JSON.parse(new TextDecoder().decode(msg.data)) as RpcRequest<T>;
        let reply: RpcReply;
        try {
          reply = { ok: true, data: handle(request.data) };
        } catch (err) {
          reply = { ok: false, error: (err as AppError).toPayload() };
        }
        msg.respond(new TextEncoder().encode(JSON.stringify(reply)));
      },
    });
  }
}

function context(callId: string, provider = 'carrier_b', intro?: string): VoiceCallContext {
  return {
    callId,
    partnerId: 'partner_spec',
    agentId: 'agent_spec',
    sessionId: 'session_spec',
    direction: 'outbound',
    fromNumber: '+15550000001',
    toNumber: '+919876543210',
    provider,
    variables: {},
    answeredBy: null,
    // No intro: the conversation starts and waits for the caller, so an accepted stream stays open.
    agent: agentSettings({ voiceId: 'none', ...(intro ? { introMessage: intro } : {}) }),
  };
}

/** How an upgrade ended: the HTTP status of a refusal, or 101 for an accepted WebSocket. */
function upgrade(
  url: string,
  options: { origin?: string } = {},
): Promise<{ status: number; body: string; socket?: WebSocket; messages?: unknown[] }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, options);
    // Everything the socket is sent from its first message (which may come with the handshake): JSON text
    // parsed, binary as its length.
    const messages: unknown[] = [];
    socket.on('message', (data, isBinary) =>
      messages.push(isBinary ? (data as Buffer).length : JSON.parse(String(data))),
    );
    socket.once('open', () => resolve({ status: 101, body: '', socket, messages }));
    socket.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: body.trim() }));
    });
    socket.once('error', (err) => {
      if (!/Unexpected server response/.test(err.message)) reject(err);
    });
  });
}

/** An accepted upgrade's socket until it closes: the close code and reason, and whether any message came. */
function closeOf(socket: WebSocket): Promise<{ code: number; reason: string; messages: number }> {
  let messages = 0;
  socket.on('message', () => messages++);
  return new Promise((resolve) =>
    socket.once('close', (code, reason) => resolve({ code, reason: reason.toString(), messages })),
  );
}

/** The voice app on an ephemeral port, against the fake calls service on `prefix`. */
async function startVoice(env: Record<string, string>): Promise<{ app: INestApplication; base: string }> {
  const configs = validateConfigs([VoiceConfig, BlobStoreConfig], {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    NATS_URL,
    RPC_TIMEOUT_MS: '2000',
    STT_PROVIDER: 'offline',
    TTS_PROVIDER: 'offline',
    ...env,
  });
  const app = await NestFactory.create(
    withServiceConfigs(AppModule.forRoot(configs.get(VoiceConfig), configs), configs),
    { logger: false },
  );
  await app.listen(0, '127.0.0.1');
  return { app, base: (await app.getUrl()).replace(/^http/, 'ws').replace('[::1]', '127.0.0.1') };
}

describe('media stream upgrades (the voice app over real NATS)', () => {
  // The calls service signs with the key it derives from its SECRETS_KEY; voice is given only that key.
  const secretsKey = randomBytes(32).toString('hex');
  const key = mediaStreamTokenKey(Buffer.from(secretsKey, 'hex'));
  const prefix = `voicespec_${randomBytes(4).toString('hex')}`;
  const blobDir = mkdtempSync(join(tmpdir(), 'voice-spec-'));
  let app: INestApplication;
  let nc: NatsConnection;
  let calls: FakeCallsService;
  let base: string;
  let publicBase: string;

  const tokenFor = (callId: string, options: { now?: number; ttlMs?: number } = {}) =>
    issueStreamToken({ callId, ttlMs: options.ttlMs ?? 60_000, now: options.now ?? Date.now() }, key);
  const streamUrl = (callId: string, token: string, carrier = 'carrier_b') =>
    `${base}/media/${carrier}/${encodeURIComponent(callId)}?token=${encodeURIComponent(token)}`;

  beforeAll(async () => {
    nc = await connect({ servers: NATS_URL });
    calls = new FakeCallsService(nc, prefix);
    calls.start();
    // The fake's subscriptions reach the server before the first request, or that request finds no responder.
    await nc.flush();
    publicBase = 'https://media.example.test';
    ({ app, base } = await startVoice({
      NATS_SUBJECT_PREFIX: prefix,
      STREAM_TOKEN_KEY: streamTokenKeyOf(secretsKey),
      MEDIA_PUBLIC_URL: publicBase,
      BLOB_STORAGE_DIR: blobDir,
    }));
  });

  afterAll(async () => {
    await app?.close();
    await nc?.drain();
    rmSync(blobDir, { recursive: true, force: true });
  });

  it('accepts a stream with a valid token for a live call, attaching it with the public URL and headers', async () => {
    calls.liveCalls.add('call_ok');
    const token = tokenFor('call_ok');
    const result = await upgrade(streamUrl('call_ok', token));
    expect(result.status).toBe(101);
    const attach = calls.attached.find((a) => a.callId === 'call_ok')!;
    expect(attach).toMatchObject({ callId: 'call_ok', carrier: 'carrier_b' });
    // The URL the carrier signed: MEDIA_PUBLIC_URL's host, the request's path and query.
    expect(attach.url).toBe(`wss://media.example.test/media/carrier_b/call_ok?token=${token}`);
    expect(attach.headers['sec-websocket-version']).toBe('13');
    // The call ends when the carrier goes away, and the calls service hears of it.
    result.socket!.close();
    await waitFor(() => calls.ended.some((e) => e.callId === 'call_ok'));
  });

  it('refuses a token signed with another key: 401, before the calls service is asked', async () => {
    const before = calls.attached.length;
    const forged = issueStreamToken({ callId: 'call_ok', ttlMs: 60_000, now: Date.now() }, randomBytes(32));
    expect(await upgrade(streamUrl('call_ok', forged))).toEqual({ status: 401, body: 'bad_token_signature' });
    expect(await upgrade(streamUrl('call_ok', 'not-a-token'))).toEqual({
      status: 401,
      body: 'malformed_token',
    });
    expect(calls.attached.length).toBe(before);
  });

  it('refuses an expired token: 401', async () => {
    const token = tokenFor('call_ok', { now: Date.now() - 120_000, ttlMs: 60_000 });
    expect(await upgrade(streamUrl('call_ok', token))).toEqual({ status: 401, body: 'expired_token' });
  });

  it('refuses a token bound to another call: 401', async () => {
    calls.liveCalls.add('call_other');
    const token = tokenFor('call_other');
    expect(await upgrade(streamUrl('call_ok', token))).toEqual({
      status: 401,
      body: 'token_for_another_call',
    });
  });

  it('refuses a stream without a token (401) or on an unknown path or carrier (404)', async () => {
    expect(await upgrade(`${base}/media/carrier_b/call_ok`)).toEqual({ status: 401, body: 'missing_token' });
    expect(await upgrade(`${base}/elsewhere?token=x`)).toEqual({ status: 404, body: 'not_a_stream_path' });
    const token = tokenFor('call_ok');
    expect(await upgrade(streamUrl('call_ok', token, 'carrier_z'))).toEqual({
      status: 404,
      body: 'unknown_carrier',
    });
  });

  it("maps the calls service's answers: unknown call 404, replayed token 409", async () => {
    expect(await upgrade(streamUrl('call_gone', tokenFor('call_gone')))).toEqual({
      status: 404,
      body: 'unknown_call',
    });
    calls.liveCalls.add('call_replay');
    const token = tokenFor('call_replay');
    const first = await upgrade(streamUrl('call_replay', token));
    expect(first.status).toBe(101);
    expect(await upgrade(streamUrl('call_replay', token))).toEqual({ status: 409, body: 'replayed' });
    first.socket!.close();
    await waitFor(() => calls.ended.some((e) => e.callId === 'call_replay'));
  });

  it('tries an attach the calls service could not answer again, and admits the stream once it answers', async () => {
    calls.liveCalls.add('call_flaky');
    calls.unavailableAttaches = 2;
    const result = await upgrade(streamUrl('call_flaky', tokenFor('call_flaky')));
    expect(result.status).toBe(101);
    expect(calls.attached.filter((a) => a.callId === 'call_flaky')).toHaveLength(3);
    result.socket!.close();
    await waitFor(() => calls.ended.some((e) => e.callId === 'call_flaky'));
    // A refusal is final: one attempt.
    const before = calls.attached.length;
    expect(await upgrade(streamUrl('call_nowhere', tokenFor('call_nowhere')))).toEqual({
      status: 404,
      body: 'unknown_call',
    });
    expect(calls.attached.length).toBe(before + 1);
  });

  it("refuses a call's second stream (409 stream_taken), whatever its token", async () => {
    calls.liveCalls.add('call_twice');
    const first = await upgrade(streamUrl('call_twice', tokenFor('call_twice')));
    expect(first.status).toBe(101);
    expect(await upgrade(streamUrl('call_twice', tokenFor('call_twice')))).toEqual({
      status: 409,
      body: 'stream_taken',
    });
    first.socket!.close();
    await waitFor(() => calls.ended.some((e) => e.callId === 'call_twice'));
  });

  describe('browser sessions (/browser/<id>)', () => {
    const browserUrl = (id: string, token: string) =>
      `${base}/browser/${encodeURIComponent(id)}?token=${encodeURIComponent(token)}`;

    it('admits a browser with its origin passed to attach, runs the conversation on PCM16, and ends on `end`', async () => {
      const id = randomUUID();
      calls.browserSessions.set(id, [ORIGIN]);
      const token = tokenFor(id);
      const result = await upgrade(browserUrl(id, token), { origin: ORIGIN });
      expect(result.status).toBe(101);
      const socket = result.socket!;
      const messages = result.messages!;
      const attach = calls.attached.find((a) => a.callId === id)!;
      expect(attach).toMatchObject({ callId: id, carrier: 'browser' });
      expect(attach.url).toBe(`wss://media.example.test/browser/${id}?token=${token}`);
      expect(attach.headers.origin).toBe(ORIGIN);
      await waitFor(() => messages.length > 0);
      expect(messages[0]).toEqual({ type: 'session.started', session_id: id });
      // A second of silence as the browser sends it: 20 ms frames of 640 bytes.
      for (let i = 0; i < 50; i++) socket.send(Buffer.alloc(640));
      const closed = closeOf(socket);
      socket.send(JSON.stringify({ type: 'end' }));
      expect((await closed).code).toBe(1000);
      expect(messages.at(-1)).toEqual({ type: 'session.ended', reason: 'caller_ended' });
      await waitFor(() => calls.ended.some((e) => e.callId === id));
      expect(calls.ended.find((e) => e.callId === id)).toMatchObject({ endCallReason: 'caller_ended' });
    });

    it("plays the agent's speech to the browser as 16 kHz PCM16 frames, with its marks and notices", async () => {
      const id = randomUUID();
      calls.browserSessions.set(id, [ORIGIN]);
      calls.intros.set(id, 'Hello there.');
      const result = await upgrade(browserUrl(id, tokenFor(id)), { origin: ORIGIN });
      expect(result.status).toBe(101);
      const socket = result.socket!;
      const messages = result.messages!;
      // The browser streams its microphone (silence) in real time and echoes marks as played.
      const mic = setInterval(() => socket.send(Buffer.alloc(640)), 20);
      socket.on('message', (data, isBinary) => {
        if (isBinary) return;
        const message = JSON.parse(String(data)) as { type: string; name?: string };
        if (message.type === 'mark') socket.send(JSON.stringify({ type: 'played', name: message.name }));
      });
      try {
        await waitFor(() => messages.some((m) => (m as { type?: string }).type === 'transcript'), 15_000);
      } finally {
        clearInterval(mic);
      }
      const audio = messages.filter((m): m is number => typeof m === 'number');
      expect(audio.length).toBeGreaterThan(10);
      expect(audio.slice(1, -1).every((bytes) => bytes === 640)).toBe(true);
      const notices = messages.filter((m) => typeof m !== 'number') as { type: string }[];
      expect(notices.map((n) => n.type)).toEqual(
        expect.arrayContaining(['session.started', 'agent.speaking', 'mark', 'transcript']),
      );
      expect(notices).toContainEqual({ type: 'agent.speaking', speaking: true });
      expect(notices).toContainEqual({
        type: 'transcript',
        role: 'agent',
        text: 'Hello there.',
        final: true,
      });
      const closed = closeOf(socket);
      socket.send(JSON.stringify({ type: 'end' }));
      expect((await closed).code).toBe(1000);
      await waitFor(() => calls.ended.some((e) => e.callId === id));
    }, 30_000);

    it('reports a browser session ended when the browser just closes its socket', async () => {
      const id = randomUUID();
      calls.browserSessions.set(id, [ORIGIN]);
      const result = await upgrade(browserUrl(id, tokenFor(id)), { origin: ORIGIN });
      expect(result.status).toBe(101);
      result.socket!.close();
      await waitFor(() => calls.ended.some((e) => e.callId === id));
      expect(calls.ended.find((e) => e.callId === id)).toMatchObject({
        endCallReason: 'caller_disconnected',
      });
    });

    /** A browser refusal: the handshake completes and the socket closes at once, with nothing sent before. */
    const refusedWith = async (url: string, origin: string | undefined, code: number, reason: string) => {
      const result = await upgrade(url, origin ? { origin } : {});
      expect(result.status).toBe(101);
      expect(await closeOf(result.socket!)).toEqual({ code, reason, messages: 0 });
      expect(result.messages).toEqual([]);
    };

    it('closes a page the session does not allow with 4403 origin_not_allowed, and keeps malformed requests HTTP', async () => {
      const id = randomUUID();
      calls.browserSessions.set(id, [ORIGIN]);
      await refusedWith(
        browserUrl(id, tokenFor(id)),
        'https://evil.example.test',
        4403,
        'origin_not_allowed',
      );
      await refusedWith(browserUrl(id, tokenFor(id)), undefined, 4403, 'origin_not_allowed');
      expect(calls.attached.filter((a) => a.callId === id).map((a) => a.headers.origin)).toEqual([
        'https://evil.example.test',
        undefined,
      ]);
      // A request that is no session's (no token, a mangled one): an HTTP status, no socket.
      expect(await upgrade(`${base}/browser/${id}`, { origin: ORIGIN })).toEqual({
        status: 401,
        body: 'missing_token',
      });
      expect(await upgrade(browserUrl(id, 'not-a-token'), { origin: ORIGIN })).toEqual({
        status: 401,
        body: 'malformed_token',
      });
      const before = calls.attached.length;
      // A token for another session, or not signed by the platform: token_invalid, decided before the calls
      // service is asked, so the page learns nothing of the session the path names.
      await refusedWith(browserUrl(id, tokenFor(randomUUID())), ORIGIN, 4401, 'token_invalid');
      const forged = issueStreamToken({ callId: id, ttlMs: 60_000, now: Date.now() }, randomBytes(32));
      await refusedWith(browserUrl(id, forged), ORIGIN, 4401, 'token_invalid');
      expect(calls.attached.length).toBe(before);
      const unknown = randomUUID();
      await refusedWith(browserUrl(unknown, tokenFor(unknown)), ORIGIN, 4404, 'session_not_found');
      expect(calls.browserRefusals).toEqual([]);
    });

    it('closes an expired token with 4401 token_expired and has the session record it', async () => {
      const id = randomUUID();
      calls.browserSessions.set(id, [ORIGIN]);
      const expired = tokenFor(id, { now: Date.now() - 120_000 });
      await refusedWith(browserUrl(id, expired), ORIGIN, 4401, 'token_expired');
      expect(calls.browserRefusals).toEqual([{ sessionId: id, reason: 'token_expired', origin: ORIGIN }]);
      expect(calls.attached.some((a) => a.callId === id)).toBe(false);
    });

    it('closes a used token with 4401 token_used, while the session it opened goes on', async () => {
      const id = randomUUID();
      calls.browserSessions.set(id, [ORIGIN]);
      const token = tokenFor(id);
      const first = await upgrade(browserUrl(id, token), { origin: ORIGIN });
      expect(first.status).toBe(101);
      await refusedWith(browserUrl(id, token), ORIGIN, 4401, 'token_used');
      expect(first.socket!.readyState).toBe(WebSocket.OPEN);
      first.socket!.close();
      await waitFor(() => calls.ended.some((e) => e.callId === id));
    });
  });

  describe('with MAX_LIVE_SESSIONS=1', () => {
    let small: { app: INestApplication; base: string };
    const smallUrl = (callId: string, token: string) =>
      `${small.base}/media/carrier_b/${callId}?token=${encodeURIComponent(token)}`;
    const ready = async () => (await fetch(`${small.base.replace(/^ws/, 'http')}/health/ready`)).status;

    beforeAll(async () => {
      small = await startVoice({
        NATS_SUBJECT_PREFIX: prefix,
        STREAM_TOKEN_KEY: streamTokenKeyOf(secretsKey),
        MEDIA_PUBLIC_URL: publicBase,
        BLOB_STORAGE_DIR: blobDir,
        MAX_LIVE_SESSIONS: '1',
      });
    });

    afterAll(async () => {
      await small?.app.close();
    });

    it('closes a stream over the limit with 1013 before any audio, its token unspent, and is not ready while full', async () => {
      calls.liveCalls.add('call_first').add('call_over');
      const first = await upgrade(smallUrl('call_first', tokenFor('call_first')));
      expect(first.status).toBe(101);
      expect(await ready()).toBe(503);

      const overToken = tokenFor('call_over');
      const over = await upgrade(smallUrl('call_over', overToken));
      expect(over.status).toBe(101);
      expect(await closeOf(over.socket!)).toEqual({
        code: STREAM_CLOSE_REPLICA_FULL,
        reason: 'replica full',
        messages: 0,
      });
      // The calls service was never asked: neither the token nor the call's one stream is spent.
      expect(calls.attached.some((a) => a.callId === 'call_over')).toBe(false);

      first.socket!.close();
      await waitFor(() => calls.ended.some((e) => e.callId === 'call_first'));
      await waitForAsync(async () => (await ready()) === 200);
      const retried = await upgrade(smallUrl('call_over', overToken));
      expect(retried.status).toBe(101);
      retried.socket!.close();
      await waitFor(() => calls.ended.some((e) => e.callId === 'call_over'));
    });

    it('closes a browser over the limit with 4429 capacity, recorded on its session, its token unspent', async () => {
      calls.liveCalls.add('call_holding');
      await waitForAsync(async () => (await ready()) === 200);
      const holding = await upgrade(smallUrl('call_holding', tokenFor('call_holding')));
      expect(holding.status).toBe(101);
      const id = randomUUID();
      calls.browserSessions.set(id, [ORIGIN]);
      const url = `${small.base}/browser/${id}?token=${encodeURIComponent(tokenFor(id))}`;
      const over = await upgrade(url, { origin: ORIGIN });
      expect(await closeOf(over.socket!)).toEqual({ code: 4429, reason: 'capacity', messages: 0 });
      expect(calls.browserRefusals).toContainEqual({ sessionId: id, reason: 'capacity', origin: ORIGIN });
      expect(calls.attached.some((a) => a.callId === id)).toBe(false);
      holding.socket!.close();
      await waitFor(() => calls.ended.some((e) => e.callId === 'call_holding'));
    });

    it('admits one of simultaneous upgrades and closes the others with 1013 before asking the calls service', async () => {
      const ids = ['call_race_1', 'call_race_2', 'call_race_3'];
      for (const id of ids) calls.liveCalls.add(id);
      await waitForAsync(async () => (await ready()) === 200);
      const sockets = ids.map((id) => new WebSocket(smallUrl(id, tokenFor(id))));
      const closed: { code: number; reason: string; messages: number }[] = [];
      const closes = sockets.map((socket) => closeOf(socket).then((c) => closed.push(c)));
      await waitFor(() => closed.length === 2);
      const full = { code: STREAM_CLOSE_REPLICA_FULL, reason: 'replica full', messages: 0 };
      expect(closed).toEqual([full, full]);
      expect(calls.attached.filter((a) => ids.includes(a.callId))).toHaveLength(1);
      // The admitted one is live until its carrier leaves.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(closed).toHaveLength(2);
      for (const socket of sockets) socket.close();
      await Promise.all(closes);
    });
  });

  it('refuses new streams with 503 and fails readiness once the replica drains', async () => {
    const http = base.replace(/^ws/, 'http');
    expect((await fetch(`${http}/health/ready`)).status).toBe(200);
    app.get(ReplicaDrain).start();
    calls.liveCalls.add('call_late');
    const before = calls.attached.length;
    expect(await upgrade(streamUrl('call_late', tokenFor('call_late')))).toEqual({
      status: 503,
      body: 'draining',
    });
    // A browser is told to try again (a close its page can read), its session untouched.
    const id = randomUUID();
    const browser = await upgrade(`${base}/browser/${id}?token=${encodeURIComponent(tokenFor(id))}`, {
      origin: ORIGIN,
    });
    expect(await closeOf(browser.socket!)).toEqual({ code: 4503, reason: 'unavailable', messages: 0 });
    expect(calls.attached.length).toBe(before);
    const ready = await fetch(`${http}/health/ready`);
    expect(ready.status).toBe(503);
    expect(JSON.stringify(await ready.json())).toMatch(/draining/);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function waitForAsync(condition: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
