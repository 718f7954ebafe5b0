// The pre-call hook runner against real Postgres (and NATS for the outbox's module): what the partner's
// answer does to an admitted call. The answers come from a stand-in for the HTTP client; the client itself
// is covered in hook-client.spec.ts and the whole path in the lifecycle-hooks e2e spec.
import { DynamicModule, INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { IntegrationLogEntry } from '@vap/messages';
import { MessagingModule, OutboxService } from '@vap/messaging';
import { runMigrations } from '@vap/persistence';
import { SecretBox } from '@vap/secrets';
import { createTestDatabase, deleteJetStreamByPrefix, TestDatabase } from '@vap/testing';
import { Call } from '../calls/entities/call.entity';
import { CallsConfig } from '../config/calls.config';
import { callsDataSourceOptions } from '../database/data-source';
import { HookExchange } from '../integration-log/integration-log-entry';
import { CallProgressService } from '../progress/call-progress.service';
import { saveCall } from '../testing/call-rows';
import { HookClient, HookRequest } from './hook-client';
import { LifecycleHooksService } from './lifecycle-hooks.service';
import { PreCallHookRunner } from './pre-call-hook.runner';

jest.setTimeout(60_000);

const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const NATS_URL = process.env.NATS_URL || 'nats://127.0.0.1:4222';

@Module({})
class PreCallHookTestModule {}

class ScriptedClient {
  readonly sent: HookRequest[] = [];
  next: Pick<HookExchange, 'outcome' | 'status' | 'body' | 'error'> = {
    outcome: 'success',
    status: 200,
    body: '{}',
    error: null,
  };

  send(request: HookRequest): Promise<HookExchange> {
    this.sent.push(request);
    return Promise.resolve({
      ...this.next,
      latencyMs: 3,
      startedAt: new Date(),
      requestHeaders: {},
      requestBody: JSON.stringify(request.body),
    });
  }
}

describe('PreCallHookRunner', () => {
  let db: TestDatabase;
  let app: INestApplication;
  let dataSource: DataSource;
  let hooks: LifecycleHooksService;
  let client: ScriptedClient;
  let runner: PreCallHookRunner;
  const prefix = `t_${randomBytes(5).toString('hex')}`;

  beforeAll(async () => {
    db = await createTestDatabase(SERVER_URL, 'vap_calls_pre_call_hooks');
    const config = Object.assign(new CallsConfig(), { DATABASE_URL: db.url });
    await runMigrations(callsDataSourceOptions(config));
    const module: DynamicModule = {
      module: PreCallHookTestModule,
      imports: [
        TypeOrmModule.forRoot({ ...callsDataSourceOptions(config), retryAttempts: 0 }),
        MessagingModule.forRoot({ serviceName: 'calls', url: NATS_URL, subjectPrefix: prefix }),
      ],
      providers: [
        { provide: CallsConfig, useValue: config },
        { provide: SecretBox, useValue: new SecretBox(randomBytes(32)) },
        LifecycleHooksService,
        CallProgressService,
      ],
    };
    app = await NestFactory.create(module, { logger: false, abortOnError: false });
    await app.init();
    dataSource = app.get(DataSource);
    hooks = app.get(LifecycleHooksService);
    client = new ScriptedClient();
    runner = new PreCallHookRunner(
      dataSource,
      hooks,
      client as unknown as HookClient,
      app.get(OutboxService),
      app.get(CallProgressService),
    );
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
    await deleteJetStreamByPrefix(NATS_URL, prefix).catch(() => undefined);
  });

  /** A partner with an account-default pre-call hook, and one admitted (pending) call of it. */
  async function admitted(failureAction: 'continue' | 'block' = 'continue') {
    const partnerId = randomUUID();
    const hook = await hooks.create(partnerId, {
      event: 'pre_call',
      url: 'https://partner.example/pre',
      failure_action: failureAction,
    });
    const call = await saveCall(dataSource, {
      partnerId,
      connectionId: null,
      provider: 'sandbox',
      status: 'pending',
      startedAt: null,
      answeredBy: null,
      variables: { first_name: 'Nobody', order_id: 'A-1' },
    });
    return { hook, call };
  }

  async function logged(callId: string): Promise<IntegrationLogEntry[]> {
    const rows = (await dataSource.query(
      `SELECT event->'data' AS data FROM calls.outbox WHERE subject = 'events.integration.request_logged'
         AND event->'data'->>'callId' = $1`,
      [callId],
    )) as { data: IntegrationLogEntry }[];
    return rows.map((r) => r.data);
  }

  const reread = (id: string) => dataSource.getRepository(Call).findOneByOrFail({ id });

  it('merges the answer’s variables into the call’s, the hook’s winning, and logs the request', async () => {
    const { hook, call } = await admitted();
    client.next = {
      outcome: 'success',
      status: 200,
      body: '{"variables":{"first_name":"Asha"}}',
      error: null,
    };
    expect(await runner.run(call, 'cmp_x')).toEqual({ blocked: false });
    const expected = { first_name: 'Asha', order_id: 'A-1' };
    expect(call.variables).toEqual(expected);
    expect((await reread(call.id)).variables).toEqual(expected);
    expect(client.sent.at(-1)).toMatchObject({
      hookId: hook.id,
      timeoutMs: 2000,
      body: { call: { call_id: call.id, campaign_id: 'cmp_x', variables: { first_name: 'Nobody' } } },
    });
    expect(await logged(call.id)).toEqual([
      expect.objectContaining({ kind: 'pre_call_hook', hookId: hook.id, outcome: 'success', error: null }),
    ]);
  });

  it('ends a refused call canceled and blocked, with the reason', async () => {
    const { call } = await admitted();
    client.next = {
      outcome: 'success',
      status: 200,
      body: '{"action":"block","reason":"opted out"}',
      error: null,
    };
    expect(await runner.run(call, null)).toEqual({ blocked: true, reason: 'opted out' });
    expect(await reread(call.id)).toMatchObject({
      status: 'canceled',
      disposition: 'blocked',
      endCallReason: 'pre_call_hook_blocked',
      errorMessage: 'Blocked by the pre-call hook: opted out',
      billDurationSeconds: 0,
      variables: { first_name: 'Nobody', order_id: 'A-1' },
    });
  });

  it('applies failure_action to a non-2xx: continue leaves the call, block ends it', async () => {
    client.next = { outcome: 'http_error', status: 500, body: 'oops', error: 'HTTP 500' };
    const goesOn = await admitted('continue');
    expect(await runner.run(goesOn.call, null)).toEqual({ blocked: false });
    expect((await reread(goesOn.call.id)).status).toBe('pending');
    const stops = await admitted('block');
    expect(await runner.run(stops.call, null)).toEqual({
      blocked: true,
      reason: 'pre-call hook failed: HTTP 500',
    });
    expect((await reread(stops.call.id)).disposition).toBe('blocked');
    expect(await logged(stops.call.id)).toEqual([
      expect.objectContaining({ outcome: 'http_error', status: 500, error: 'HTTP 500' }),
    ]);
  });

  it('applies failure_action, sending nothing, when the secret does not open', async () => {
    const { hook, call } = await admitted('block');
    await dataSource.query(`UPDATE calls.lifecycle_hooks SET secret_sealed = $2 WHERE id = $1`, [
      hook.id,
      new SecretBox(randomBytes(32)).seal('hksec_other', `lifecycle-hook:${hook.id}`),
    ]);
    const before = client.sent.length;
    const outcome = await runner.run(call, null);
    expect(outcome).toMatchObject({ blocked: true });
    expect(client.sent).toHaveLength(before);
    expect((await reread(call.id)).disposition).toBe('blocked');
    expect(await logged(call.id)).toEqual([]);
  });

  it('does nothing for a call without a hook', async () => {
    const call = await saveCall(dataSource, {
      partnerId: randomUUID(),
      connectionId: null,
      provider: 'sandbox',
      status: 'pending',
      startedAt: null,
    });
    const before = client.sent.length;
    expect(await runner.run(call, null)).toEqual({ blocked: false });
    expect(client.sent).toHaveLength(before);
  });
});
