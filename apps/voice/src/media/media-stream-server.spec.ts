import 'reflect-metadata';
import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, NatsConnection } from 'nats';
import { WebSocket } from 'ws';
import {
  AppError,
  RpcReply,
  RpcRequest,
  VoiceAttachRequest,
  VoiceCallContext,
  VoiceEndedRequest,
} from '@vap/contracts';
import { issueStreamToken } from '@vap/media';
import { validateConfigs, withServiceConfigs } from '@vap/runtime';
import { mediaStreamTokenKey, streamTokenKeyOf } from '@vap/secrets';
import { BlobStoreConfig } from '@vap/storage';
import { AppModule } from '../app.module';
import { VoiceConfig } from '../config/voice.config';
import { ReplicaDrain } from '../drain/replica-drain';

const NATS_URL = process.env.NATS_URL || 'nats://127.0.0.1:4222';

/** The calls (and agents) service as the voice app sees it over NATS: attach, voice lookup, hang-up, ended. */
class FakeCallsService {
  readonly attached: VoiceAttachRequest[] = [];
  readonly ended: VoiceEndedRequest[] = [];
  /** Calls the fake answers as live; others are 404. Nonces already used are 409. */
  readonly liveCalls = new Set<string>();
  private readonly usedNonces = new Set<string>();

  constructor(
    private readonly nc: NatsConnection,
    private readonly prefix: string,
  ) {}

  start(): void {
    this.answer('calls.voice.attach', (req: VoiceAttachRequest) => {
      this.attached.push(req);
      if (!this.liveCalls.has(req.callId)) throw AppError.notFound('call');
      if (this.usedNonces.has(req.nonce)) throw AppError.conflict('stream token already used');
      this.usedNonces.add(req.nonce);
      return context(req.callId);
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

function context(callId: string): VoiceCallContext {
  return {
    callId,
    partnerId: 'partner_spec',
    agentId: 'agent_spec',
    sessionId: 'session_spec',
    direction: 'outbound',
    fromNumber: '+15550000001',
    toNumber: '+919876543210',
    provider: 'carrier_b',
    variables: {},
    answeredBy: null,
    agent: { spoken_languages: ['en'], voice_id: 'none' } as unknown as VoiceCallContext['agent'],
  };
}

/** How an upgrade ended: the HTTP status of a refusal, or 101 for an accepted WebSocket. */
function upgrade(url: string): Promise<{ status: number; body: string; socket?: WebSocket }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.once('open', () => resolve({ status: 101, body: '', socket }));
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
    publicBase = 'https://media.example.test';
    const configs = validateConfigs([VoiceConfig, BlobStoreConfig], {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      NATS_URL,
      NATS_SUBJECT_PREFIX: prefix,
      STREAM_TOKEN_KEY: streamTokenKeyOf(secretsKey),
      MEDIA_PUBLIC_URL: publicBase,
      BLOB_STORAGE_DIR: blobDir,
      RPC_TIMEOUT_MS: '2000',
    });
    app = await NestFactory.create(
      withServiceConfigs(AppModule.forRoot(configs.get(VoiceConfig), configs), configs),
      { logger: false },
    );
    await app.listen(0, '127.0.0.1');
    base = (await app.getUrl()).replace(/^http/, 'ws').replace('[::1]', '127.0.0.1');
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
