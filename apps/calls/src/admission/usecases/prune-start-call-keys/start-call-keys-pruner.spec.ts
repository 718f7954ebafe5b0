// Pruning Idempotency-Key bindings against real Postgres: only bindings past their retention go, in batches,
// and a pruned key starts a new call while a live one still names its call.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { runMigrations } from '@vap/persistence';
import { createTestDatabase, TestDatabase } from '@vap/testing';
import { CallsConfig } from '../../../config/calls.config';
import { callsDataSourceOptions } from '../../../database/data-source';
import { callOfKey, RETENTION_HOURS, splitStartCommand } from '../../start-call-keys';
import { StartCallKeysPruner } from './start-call-keys-pruner.service';

const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

describe('StartCallKeysPruner', () => {
  let db: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase(SERVER_URL, 'vap_start_call_keys');
    const options = callsDataSourceOptions(Object.assign(new CallsConfig(), { DATABASE_URL: db.url }));
    await runMigrations(options);
    dataSource = await new DataSource(options).initialize();
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  /** A call of the partner's one line, bound to `key` `ageHours` ago. */
  async function binding(partnerId: string, key: string, ageHours: number): Promise<string> {
    const connectionId = randomUUID();
    await dataSource.query(
      `INSERT INTO calls.connections (id, partner_id, provider, name) VALUES ($1, $2, 'carrier_a', 'line')
       ON CONFLICT DO NOTHING`,
      [connectionId, partnerId],
    );
    const [line] = (await dataSource.query(`SELECT id FROM calls.connections WHERE partner_id = $1`, [
      partnerId,
    ])) as { id: string }[];
    const callId = randomUUID();
    await dataSource.query(
      `INSERT INTO calls.calls (id, partner_id, agent_id, session_id, direction, from_number, to_number,
                                connection_id, provider, status, agent_settings)
       VALUES ($1, $2, $3, $4, 'outbound', '+918000000001', '+918000000002', $5, 'carrier_a', 'completed', '{}')`,
      [callId, partnerId, randomUUID(), randomUUID(), line.id],
    );
    const { key: bound } = splitStartCommand({
      agent_id: 'a',
      to_number: '+918000000002',
      idempotency_key: key,
    });
    await dataSource.query(
      `INSERT INTO calls.start_call_keys (partner_id, key, request_hash, call_id, created_at)
       VALUES ($1, $2, $3, $4, now() - make_interval(hours => $5))`,
      [partnerId, key, bound!.hash, callId, ageHours],
    );
    return callId;
  }

  const keyOf = (key: string) =>
    splitStartCommand({ agent_id: 'a', to_number: '+918000000002', idempotency_key: key }).key!;

  it('deletes the bindings past their retention and keeps the live ones', async () => {
    const partnerId = randomUUID();
    await binding(partnerId, 'old-1', RETENTION_HOURS + 1);
    await binding(partnerId, 'old-2', RETENTION_HOURS * 3);
    const live = await binding(partnerId, 'live', RETENTION_HOURS - 1);

    expect(await new StartCallKeysPruner(dataSource).prune()).toBe(2);

    const left = (await dataSource.query(
      `SELECT key FROM calls.start_call_keys WHERE partner_id = $1 ORDER BY key`,
      [partnerId],
    )) as { key: string }[];
    expect(left.map((r) => r.key)).toEqual(['live']);
    expect(await callOfKey(dataSource.manager, partnerId, keyOf('live'))).toBe(live);
    expect(await callOfKey(dataSource.manager, partnerId, keyOf('old-1'))).toBeNull();
    expect(await new StartCallKeysPruner(dataSource).prune()).toBe(0);
  });
});
