// The post-call hook worker against real Postgres (and NATS for the outbox's module): what each request's
// outcome leaves on the session, in the queue and in the integration log. The partner's answers are given
// by a stand-in for the HTTP client; the client itself is covered in hook-client.spec.ts and the e2e spec.
import { DynamicModule, INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { PostCallHookResultDto } from '@vap/api';
import { IntegrationLogEntry, SessionCompletedData } from '@vap/messages';
import { MessagingModule, OutboxService } from '@vap/messaging';
import { runMigrations } from '@vap/persistence';
import { SecretBox } from '@vap/secrets';
import { createTestDatabase, deleteJetStreamByPrefix, TestDatabase } from '@vap/testing';
import { CallSession } from '../calls/entities/call-session.entity';
import { CallsConfig } from '../config/calls.config';
import { callsDataSourceOptions } from '../database/data-source';
import { HookExchange } from '../integration-log/integration-log-entry';
import { saveCall } from '../testing/call-rows';
import { HookClient, HookRequest } from './hook-client';
import { LifecycleHooksService } from './lifecycle-hooks.service';
import { enqueuePostCallHook, pendingPostCallHook } from './post-call-hook-queue';
import { PostCallHookWorker } from './post-call-hook.worker';

jest.setTimeout(60_000);

const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const NATS_URL = process.env.NATS_URL || 'nats://127.0.0.1:4222';

@Module({})
class PostCallHookTestModule {}

/** Answers each request with the next exchange given, and keeps what it was asked. */
class ScriptedClient {
  readonly sent: HookRequest[] = [];
  next: Pick<HookExchange, 'outcome' | 'status' | 'body' | 'error'> = {
    outcome: 'success',
    status: 200,
    body: '{"ok":true}',
    error: null,
  };

  send(request: HookRequest): Promise<HookExchange> {
    this.sent.push(request);
    return Promise.resolve({
      ...this.next,
      latencyMs: 5,
      startedAt: new Date(),
      requestHeaders: { 'x-vap-signature': '********' },
      requestBody: JSON.stringify(request.body),
    });
  }
}

describe('PostCallHookWorker', () => {
  let db: TestDatabase;
  let app: INestApplication;
  let dataSource: DataSource;
  let hooks: LifecycleHooksService;
  let client: ScriptedClient;
  let worker: PostCallHookWorker;
  const prefix = `t_${randomBytes(5).toString('hex')}`;
  const partnerId = randomUUID();
  let hookId: string;

  beforeAll(async () => {
    db = await createTestDatabase(SERVER_URL, 'vap_calls_post_call_hooks');
    const config = Object.assign(new CallsConfig(), { DATABASE_URL: db.url });
    await runMigrations(callsDataSourceOptions(config));
    const module: DynamicModule = {
      module: PostCallHookTestModule,
      imports: [
        TypeOrmModule.forRoot({ ...callsDataSourceOptions(config), retryAttempts: 0 }),
        MessagingModule.forRoot({ serviceName: 'calls', url: NATS_URL, subjectPrefix: prefix }),
      ],
      providers: [
        { provide: CallsConfig, useValue: config },
        { provide: SecretBox, useValue: new SecretBox(randomBytes(32)) },
        LifecycleHooksService,
      ],
    };
    app = await NestFactory.create(module, { logger: false, abortOnError: false });
    await app.init();
    dataSource = app.get(DataSource);
    hooks = app.get(LifecycleHooksService);
    client = new ScriptedClient();
    // Built by hand, not as a provider: its claim loop never starts, each test runs one job itself.
    worker = new PostCallHookWorker(
      dataSource,
      config,
      hooks,
      client as unknown as HookClient,
      app.get(OutboxService),
    );
    hookId = (await hooks.create(partnerId, { event: 'post_call', url: 'https://partner.example/post' })).id;
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
    await deleteJetStreamByPrefix(NATS_URL, prefix).catch(() => undefined);
  });

  /** A completed call whose post-call hook request is queued, claimed for its `attempts`-th time. */
  async function queued(attempts: number, hook = hookId) {
    const call = await saveCall(dataSource, {
      partnerId,
      connectionId: null,
      provider: 'sandbox',
      status: 'completed',
    });
    const payload = {
      session_id: call.sessionId,
      call_id: call.id,
      agent_id: call.agentId,
    } as SessionCompletedData;
    await dataSource.transaction(async (em) => {
      await em.update(CallSession, { callId: call.id }, { postCallHook: pendingPostCallHook(hook) });
      await enqueuePostCallHook(em, call.id, hook, payload);
    });
    await dataSource.query(`UPDATE calls.post_call_hook_jobs SET attempts = $2 WHERE call_id = $1`, [
      call.id,
      attempts,
    ]);
    return { call_id: call.id, attempts, hook_id: hook, payload };
  }

  async function stateOf(callId: string) {
    const [job] = (await dataSource.query(
      `SELECT status, last_error, extract(epoch FROM run_after - now()) AS wait FROM calls.post_call_hook_jobs WHERE call_id = $1`,
      [callId],
    )) as { status: string; last_error: string | null; wait: string }[];
    const session = await dataSource.getRepository(CallSession).findOneByOrFail({ callId });
    const logged = (await dataSource.query(
      `SELECT event->'data' AS data FROM calls.outbox WHERE subject = 'events.integration.request_logged'
         AND event->'data'->>'callId' = $1`,
      [callId],
    )) as { data: IntegrationLogEntry }[];
    return {
      job,
      hook: session.postCallHook as PostCallHookResultDto,
      logged: logged.map((l) => l.data),
    };
  }

  it('stores a 2xx answer on the session and completes the job', async () => {
    client.next = { outcome: 'success', status: 200, body: '{"crm_id":"C-1"}', error: null };
    const job = await queued(1);
    await worker['run'](job);
    const { job: row, hook, logged } = await stateOf(job.call_id);
    expect(row.status).toBe('done');
    expect(hook).toEqual({
      hook_id: hookId,
      status: 'delivered',
      outcome: 'success',
      http_status: 200,
      response: '{"crm_id":"C-1"}',
      attempts: 1,
      completed_at: expect.any(String),
    });
    expect(logged).toEqual([
      expect.objectContaining({ kind: 'post_call_hook', hookId, outcome: 'success', attempts: 1 }),
    ]);
    expect(client.sent.at(-1)).toMatchObject({
      url: 'https://partner.example/post',
      event: 'post_call',
      hookId,
      timeoutMs: 10000,
      body: { event: 'post_call', hook_id: hookId, session: job.payload },
    });
    expect(client.sent.at(-1)!.secret).toMatch(/^hksec_/);
  });

  it('keeps a failed request pending and due again after its backoff', async () => {
    client.next = { outcome: 'http_error', status: 502, body: 'bad gateway', error: 'HTTP 502' };
    const job = await queued(2);
    await worker['run'](job);
    const { job: row, hook, logged } = await stateOf(job.call_id);
    expect(row).toMatchObject({ status: 'queued', last_error: 'HTTP 502' });
    // Retry 2 waits 4 s.
    expect(Number(row.wait)).toBeGreaterThan(3);
    expect(Number(row.wait)).toBeLessThanOrEqual(4);
    expect(hook).toMatchObject({
      status: 'pending',
      outcome: 'http_error',
      http_status: 502,
      response: null,
    });
    expect(hook.completed_at).toBeNull();
    expect(logged).toEqual([expect.objectContaining({ outcome: 'http_error', status: 502, attempts: 2 })]);
  });

  it('gives up after the last attempt: failed on the session, the job dead', async () => {
    client.next = { outcome: 'timeout', status: null, body: null, error: 'no answer within 10000 ms' };
    const job = await queued(5);
    await worker['run'](job);
    const { job: row, hook, logged } = await stateOf(job.call_id);
    expect(row.status).toBe('dead');
    expect(hook).toMatchObject({ status: 'failed', outcome: 'timeout', attempts: 5 });
    expect(hook.completed_at).toEqual(expect.any(String));
    expect(logged).toEqual([expect.objectContaining({ outcome: 'timeout', attempts: 5 })]);
  });

  it('sends nothing for a hook deleted or disabled since the session completed, or whose secret does not open', async () => {
    const owner = randomUUID();
    const disabled = await hooks.create(owner, { event: 'post_call', url: 'https://p.example/x' });
    await hooks.update(owner, disabled.id, { enabled: false });
    const before = client.sent.length;
    const gone = await queued(1, `hook_${randomUUID()}`);
    await worker['run'](gone);
    const off = await queued(1, disabled.id);
    await worker['run'](off);
    // A secret sealed under another key (SECRETS_KEY replaced) cannot sign anything.
    const sealedElsewhere = await hooks.create(randomUUID(), {
      event: 'post_call',
      url: 'https://p.example/y',
    });
    await dataSource.query(`UPDATE calls.lifecycle_hooks SET secret_sealed = $2 WHERE id = $1`, [
      sealedElsewhere.id,
      new SecretBox(randomBytes(32)).seal('hksec_other', `lifecycle-hook:${sealedElsewhere.id}`),
    ]);
    const unsigned = await queued(1, sealedElsewhere.id);
    await worker['run'](unsigned);
    expect(client.sent).toHaveLength(before);
    for (const job of [gone, off, unsigned]) {
      const { job: row, hook, logged } = await stateOf(job.call_id);
      expect(row.status).toBe('dead');
      expect(hook).toMatchObject({ status: 'failed', outcome: null, attempts: 1 });
      expect(logged).toEqual([]);
    }
  });
});
