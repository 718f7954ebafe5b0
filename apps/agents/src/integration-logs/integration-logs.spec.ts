// The integration log against a real Postgres: what the read API accepts, its filters and newest-first
// cursor pages, partner scoping, the consumer of request_logged and the retention prune.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ListIntegrationLogsQueryDto } from '@vap/api';
import {
  AppError,
  DomainEvent,
  encodeCursor,
  ErrorCode,
  INTEGRATION_LOG_EXCERPT_CHARS,
  IntegrationLogEntry,
  IntegrationLogId,
} from '@vap/messages';
import { createValidationPipe } from '@vap/messaging';
import { runMigrations } from '@vap/persistence';
import { createTestDatabase, TestDatabase } from '@vap/testing';
import { AgentsConfig } from '../config/agents.config';
import { agentsDataSourceOptions } from '../database/data-source';
import { IntegrationLogWriter } from './integration-log.writer';
import { IntegrationLogsPruner } from './integration-logs-pruner.service';
import { IntegrationLogsService } from './integration-logs.service';
import { RequestLoggedConsumer, unstorableBecause } from './request-logged.consumer';

jest.setTimeout(30_000);

const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

/** The query as the gateway and the command handler validate it, or the error they answer. */
async function query(raw: Record<string, unknown>): Promise<ListIntegrationLogsQueryDto> {
  return (await createValidationPipe().transform(raw, {
    type: 'query',
    metatype: ListIntegrationLogsQueryDto,
  })) as ListIntegrationLogsQueryDto;
}

async function refusal(raw: Record<string, unknown>): Promise<AppError> {
  const err = await query(raw).then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof AppError)) throw new Error(`expected a validation error for ${JSON.stringify(raw)}`);
  return err;
}

describe('list query of GET /integration-logs', () => {
  it('takes every filter in its documented form', async () => {
    const id = randomUUID();
    const parsed = await query({
      kind: 'inbound_decision',
      outcome: 'http_error',
      call_id: id,
      browser_session_id: id,
      agent_id: id,
      function_id: 'fn_lookup-order.v2',
      hook_id: 'hook:pre_call',
      created_after: '2026-11-01T00:00:00Z',
      created_before: '2026-11-02T00:00:00.123+05:30',
      limit: '5',
    });
    expect(parsed).toMatchObject({ kind: 'inbound_decision', function_id: 'fn_lookup-order.v2', limit: 5 });
  });

  it.each([
    [{ kind: 'webhook' }, 'kind'],
    [{ kind: ['custom_function', 'knowledge_fetch'] }, 'kind'],
    [{ outcome: 'ok' }, 'outcome'],
    [{ call_id: 'not-a-uuid' }, 'call_id'],
    [{ browser_session_id: "1' OR '1'='1" }, 'browser_session_id'],
    [{ agent_id: 'ilog_x' }, 'agent_id'],
    [{ function_id: 'has space' }, 'function_id'],
    [{ function_id: 'f'.repeat(101) }, 'function_id'],
    [{ hook_id: '' }, 'hook_id'],
    [{ created_after: 'yesterday' }, 'created_after'],
    [{ created_before: '2026-02-30T00:00:00Z' }, 'created_before'],
    [{ limit: '0' }, 'limit'],
    [{ limit: '101' }, 'limit'],
    [{ status: '200' }, 'status'],
  ])('refuses %p with VALIDATION_ERROR naming %s', async (raw, field) => {
    const err = await refusal(raw);
    expect(err.code).toBe(ErrorCode.VALIDATION_ERROR);
    expect(err.message).toContain(field);
  });
});

describe('integration log (Postgres)', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  let writer: IntegrationLogWriter;
  let service: IntegrationLogsService;
  const partnerId = randomUUID();
  const otherPartnerId = randomUUID();
  const agentId = randomUUID();
  const callId = randomUUID();

  function entry(overrides: Partial<IntegrationLogEntry> = {}): IntegrationLogEntry {
    return {
      id: randomUUID(),
      partnerId,
      kind: 'custom_function',
      callId: null,
      browserSessionId: null,
      agentId: null,
      functionId: null,
      hookId: null,
      method: 'POST',
      url: 'https://partner.example/fn',
      requestHeaders: { 'content-type': 'application/json', 'x-vap-signature': '********' },
      requestBody: '{"order":"42"}',
      status: 200,
      responseBody: '{"ok":true}',
      outcome: 'success',
      error: null,
      latencyMs: 120,
      attempts: 1,
      startedAt: new Date().toISOString(),
      ...overrides,
    };
  }

  /** Follows next_cursor to the end; the ids in the order listed. */
  async function walk(partner: string, raw: Record<string, unknown>): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 50; pages++) {
      const page = await service.list(partner, await query({ ...raw, ...(cursor ? { cursor } : {}) }));
      ids.push(...page.integration_logs.map((l) => l.id));
      if (!page.next_cursor) return ids;
      cursor = page.next_cursor;
    }
    throw new Error('next_cursor never ended');
  }

  // Ten entries a minute apart, newest last; the first four share one call, odd ones failed.
  const base = Date.parse('2026-11-20T10:00:00.000Z');
  const seeded: IntegrationLogEntry[] = Array.from({ length: 10 }, (_, i) =>
    entry({
      kind: i < 6 ? 'custom_function' : 'inbound_decision',
      callId: i < 4 ? callId : null,
      agentId: i % 3 === 0 ? agentId : null,
      functionId: i < 6 ? `fn_${i % 2}` : null,
      outcome: i % 2 ? 'http_error' : 'success',
      status: i % 2 ? 502 : 200,
      startedAt: new Date(base + i * 60_000).toISOString(),
    }),
  );
  const publicIds = (list: IntegrationLogEntry[]) => list.map((e) => IntegrationLogId.format(e.id));
  const newestFirst = (list: IntegrationLogEntry[]) => publicIds([...list].reverse());

  beforeAll(async () => {
    db = await createTestDatabase(SERVER_URL, 'vap_integration_logs');
    const options = agentsDataSourceOptions(Object.assign(new AgentsConfig(), { DATABASE_URL: db.url }));
    await runMigrations(options);
    dataSource = await new DataSource(options).initialize();
    writer = new IntegrationLogWriter(dataSource);
    service = new IntegrationLogsService(dataSource);
    for (const e of seeded) await writer.record(e);
    // Another account's entries, interleaved in time and on the same call id: never listed.
    for (let i = 0; i < 3; i++)
      await writer.record(
        entry({
          partnerId: otherPartnerId,
          callId,
          startedAt: new Date(base + i * 60_000 + 30_000).toISOString(),
        }),
      );
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  it('lists the account’s entries newest first, each once, at every page size', async () => {
    for (const limit of [1, 3, 10, 100])
      expect(await walk(partnerId, { limit: String(limit) })).toEqual(newestFirst(seeded));
  });

  it('applies each filter, alone and together, across pages', async () => {
    expect(await walk(partnerId, { call_id: callId, limit: '2' })).toEqual(newestFirst(seeded.slice(0, 4)));
    expect(await walk(partnerId, { kind: 'inbound_decision', limit: '3' })).toEqual(
      newestFirst(seeded.slice(6)),
    );
    expect(await walk(partnerId, { outcome: 'http_error' })).toEqual(
      newestFirst(seeded.filter((e) => e.outcome === 'http_error')),
    );
    expect(await walk(partnerId, { agent_id: agentId.toUpperCase() })).toEqual(
      newestFirst(seeded.filter((e) => e.agentId === agentId)),
    );
    expect(await walk(partnerId, { function_id: 'fn_1', outcome: 'http_error', limit: '1' })).toEqual(
      newestFirst(seeded.filter((e) => e.functionId === 'fn_1')),
    );
    // created_after is inclusive, created_before exclusive.
    expect(
      await walk(partnerId, {
        created_after: seeded[2].startedAt,
        created_before: seeded[5].startedAt,
      }),
    ).toEqual(newestFirst(seeded.slice(2, 5)));
    expect(await walk(partnerId, { hook_id: 'none_such' })).toEqual([]);
  });

  it('never lists another account’s entries, nor gets one (404)', async () => {
    const theirs = await walk(otherPartnerId, {});
    expect(theirs).toHaveLength(3);
    expect(await walk(partnerId, { call_id: callId })).not.toEqual(expect.arrayContaining([theirs[0]]));
    const err = await service.get(partnerId, theirs[0]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe(ErrorCode.NOT_FOUND);
  });

  it('gets one entry with its headers and bodies; an unknown or malformed id is 404', async () => {
    const got = await service.get(partnerId, IntegrationLogId.format(seeded[3].id));
    expect(got).toEqual({
      id: IntegrationLogId.format(seeded[3].id),
      kind: 'custom_function',
      method: 'POST',
      url: 'https://partner.example/fn',
      status: 502,
      outcome: 'http_error',
      error: null,
      latency_ms: 120,
      attempts: 1,
      call_id: callId,
      browser_session_id: null,
      agent_id: agentId,
      function_id: 'fn_1',
      hook_id: null,
      started_at: seeded[3].startedAt,
      request_headers: { 'content-type': 'application/json', 'x-vap-signature': '********' },
      request_body: '{"order":"42"}',
      response_body: '{"ok":true}',
    });
    for (const id of [IntegrationLogId.format(randomUUID()), seeded[3].id, 'ilog_nope', ''])
      await expect(service.get(partnerId, id)).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
  });

  it('refuses a tampered or foreign cursor with VALIDATION_ERROR', async () => {
    for (const cursor of [
      'garbage',
      encodeCursor({ t: 'yesterday', id: randomUUID() }),
      encodeCursor({ t: '2026-11-20T10:00:00Z', id: IntegrationLogId.format(randomUUID()) }),
      encodeCursor({ t: '2026-11-20T10:00:00Z', id: "x' OR 1=1 --" }),
    ]) {
      await expect(service.list(partnerId, await query({ cursor }))).rejects.toMatchObject({
        code: ErrorCode.VALIDATION_ERROR,
      });
    }
  });

  it('stores an entry once however often it is recorded, with bodies cut to the excerpt', async () => {
    const long = entry({ requestBody: 'a'.repeat(10_000), responseBody: 'b'.repeat(10_000) });
    await writer.record(long);
    await writer.record({ ...long, status: 500 });
    const got = await service.get(partnerId, IntegrationLogId.format(long.id));
    expect(got.status).toBe(200);
    expect(got.request_body).toBe('a'.repeat(INTEGRATION_LOG_EXCERPT_CHARS));
    expect(got.response_body).toBe('b'.repeat(INTEGRATION_LOG_EXCERPT_CHARS));
  });

  it('stores request_logged events of their own partner only, in the consumer’s transaction', async () => {
    const consumer = new RequestLoggedConsumer(writer);
    const event = (
      data: IntegrationLogEntry,
      eventPartner: string | null,
    ): DomainEvent<IntegrationLogEntry> => ({
      id: randomUUID(),
      subject: 'events.integration.request_logged',
      partnerId: eventPartner,
      occurredAt: new Date().toISOString(),
      data,
    });
    const own = entry({ kind: 'inbound_decision', partnerId: otherPartnerId });
    const forged = entry({ kind: 'inbound_decision', partnerId });
    await dataSource.transaction(async (em) => {
      await consumer.onRequestLogged(event(own, otherPartnerId), em);
      await consumer.onRequestLogged(event(forged, otherPartnerId), em);
    });
    await expect(service.get(otherPartnerId, IntegrationLogId.format(own.id))).resolves.toMatchObject({
      kind: 'inbound_decision',
    });
    await expect(service.get(partnerId, IntegrationLogId.format(forged.id))).rejects.toMatchObject({
      code: ErrorCode.NOT_FOUND,
    });
    // A rolled-back transaction leaves nothing: the entry commits with the inbox mark or not at all.
    const rolledBack = entry();
    await dataSource
      .transaction(async (em) => {
        await consumer.onRequestLogged(event(rolledBack, partnerId), em);
        throw new Error('inbox insert failed');
      })
      .catch(() => undefined);
    await expect(service.get(partnerId, IntegrationLogId.format(rolledBack.id))).rejects.toMatchObject({
      code: ErrorCode.NOT_FOUND,
    });
  });

  it('drops entries the table could not take instead of failing their event for ever', async () => {
    const consumer = new RequestLoggedConsumer(writer);
    const bad: Partial<IntegrationLogEntry>[] = [
      { id: 'not-a-uuid' },
      { kind: 'webhook' as IntegrationLogEntry['kind'] },
      { outcome: 'fine' as IntegrationLogEntry['outcome'] },
      { callId: 'call-1' },
      { agentId: 'agent-1' },
      { functionId: 7 as unknown as string },
      { requestHeaders: { a: 1 } as unknown as Record<string, string> },
      { requestHeaders: null as unknown as Record<string, string> },
      { responseBody: {} as unknown as string },
      { status: 42 },
      { attempts: 0 },
      { latencyMs: -1 },
      { startedAt: 'yesterday' },
      { url: null as unknown as string },
    ];
    const count = async () =>
      Number((await dataSource.query('SELECT count(*) FROM agents.integration_logs'))[0].count);
    const before = await count();
    for (const overrides of bad) {
      const data = entry(overrides);
      expect(unstorableBecause(data)).toEqual(expect.any(String));
      await dataSource.transaction((em) =>
        consumer.onRequestLogged(
          {
            id: randomUUID(),
            subject: 'events.integration.request_logged',
            partnerId,
            occurredAt: new Date().toISOString(),
            data,
          },
          em,
        ),
      );
    }
    expect(await count()).toBe(before);
    expect(unstorableBecause(entry({ callId: randomUUID(), status: null, error: 'timeout' }))).toBeNull();
  });

  it('prunes entries past the retention and keeps the rest', async () => {
    const old = entry({ startedAt: new Date(Date.now() - 8 * 86_400_000).toISOString() });
    const recent = entry({ startedAt: new Date(Date.now() - 6 * 86_400_000).toISOString() });
    await writer.record(old);
    await writer.record(recent);
    const pruner = new IntegrationLogsPruner(
      dataSource,
      Object.assign(new AgentsConfig(), { INTEGRATION_LOG_RETENTION_DAYS: 7 }),
    );
    // The seeded entries (November 2026, before now) go too when they are older than a week.
    const before = Number((await dataSource.query('SELECT count(*) FROM agents.integration_logs'))[0].count);
    const pruned = await pruner.prune();
    const left = (await dataSource.query('SELECT id FROM agents.integration_logs')) as { id: string }[];
    expect(left.map((r) => r.id)).toContain(recent.id);
    expect(left.map((r) => r.id)).not.toContain(old.id);
    expect(pruned).toBe(before - left.length);
    const stale = (await dataSource.query(
      `SELECT count(*)::int AS n FROM agents.integration_logs WHERE started_at < now() - interval '7 days'`,
    )) as { n: number }[];
    expect(stale[0].n).toBe(0);
  });
});
