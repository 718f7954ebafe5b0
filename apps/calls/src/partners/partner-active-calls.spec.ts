// The per-partner count of active calls against real Postgres: the trigger keeps it equal to the calls
// themselves through inserts, moves, rollbacks and concurrent ends, and each end reads a count of its own.
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { runMigrations } from '@vap/persistence';
import { createTestDatabase, TestDatabase } from '@vap/testing';
import { CallsConfig } from '../config/calls.config';
import { callsDataSourceOptions } from '../database/data-source';
import { lockActiveCalls, readActiveCalls } from './partner-lock';

const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

describe('partner_active_calls', () => {
  let db: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase(SERVER_URL, 'vap_partner_active_calls');
    const config = Object.assign(new CallsConfig(), { DATABASE_URL: db.url });
    const options = callsDataSourceOptions(config);
    await runMigrations(options);
    dataSource = await new DataSource(options).initialize();
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  async function newPartner(): Promise<{ partnerId: string; connectionId: string }> {
    const partnerId = randomUUID();
    const connectionId = randomUUID();
    await dataSource.query(
      `INSERT INTO calls.connections (id, partner_id, provider, name) VALUES ($1, $2, 'carrier_a', 'line')`,
      [connectionId, partnerId],
    );
    return { partnerId, connectionId };
  }

  async function insertCall(
    em: EntityManager,
    { partnerId, connectionId }: { partnerId: string; connectionId: string },
    status = 'pending',
  ): Promise<string> {
    const callId = randomUUID();
    await em.query(
      `INSERT INTO calls.calls (id, partner_id, agent_id, session_id, direction, from_number, to_number,
                                connection_id, provider, status, agent_settings)
       VALUES ($1, $2, $3, $4, 'outbound', '+918000000001', '+918000000002', $5, 'carrier_a', $6, '{}')`,
      [callId, partnerId, randomUUID(), randomUUID(), connectionId, status],
    );
    return callId;
  }

  const move = (em: EntityManager, callId: string, status: string) =>
    em.query(`UPDATE calls.calls SET status = $2 WHERE id = $1`, [callId, status]);

  const counted = async (partnerId: string) => {
    const [row] = (await dataSource.query(
      `SELECT count(*)::int AS n FROM calls.calls
        WHERE partner_id = $1 AND status IN ('pending', 'ringing', 'in_progress')`,
      [partnerId],
    )) as { n: number }[];
    return { counter: await readActiveCalls(dataSource.manager, partnerId), calls: row.n };
  };

  it('counts inserts and ends, not moves between active statuses, and never a rolled-back change', async () => {
    const partner = await newPartner();
    expect(await readActiveCalls(dataSource.manager, partner.partnerId)).toBe(0);
    const a = await insertCall(dataSource.manager, partner);
    const b = await insertCall(dataSource.manager, partner, 'ringing');
    await insertCall(dataSource.manager, partner, 'completed');
    expect(await counted(partner.partnerId)).toEqual({ counter: 2, calls: 2 });

    await move(dataSource.manager, a, 'ringing');
    await move(dataSource.manager, a, 'in_progress');
    expect(await counted(partner.partnerId)).toEqual({ counter: 2, calls: 2 });

    await expect(
      dataSource.transaction(async (em) => {
        await move(em, b, 'failed');
        await insertCall(em, partner);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await counted(partner.partnerId)).toEqual({ counter: 2, calls: 2 });

    await move(dataSource.manager, a, 'completed');
    await move(dataSource.manager, b, 'no_answer');
    expect(await counted(partner.partnerId)).toEqual({ counter: 0, calls: 0 });
  });

  it('gives each of many concurrent ends a count of its own, ending at zero', async () => {
    const partner = await newPartner();
    const calls: string[] = [];
    for (let i = 0; i < 20; i++) calls.push(await insertCall(dataSource.manager, partner, 'in_progress'));

    const seen = await Promise.all(
      calls.map((callId) =>
        dataSource.transaction(async (em) => {
          await move(em, callId, 'completed');
          // Something else the move does before it commits, while it holds the count.
          await em.query('SELECT pg_sleep(0.005)');
          return readActiveCalls(em, partner.partnerId);
        }),
      ),
    );
    expect([...seen].sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(await counted(partner.partnerId)).toEqual({ counter: 0, calls: 0 });
  });

  it('admits exactly up to the limit when admissions race ends', async () => {
    const partner = await newPartner();
    const limit = 5;
    const live: string[] = [];
    for (let i = 0; i < limit; i++) live.push(await insertCall(dataSource.manager, partner, 'ringing'));
    let peak = 0;
    const admit = () =>
      dataSource.transaction(async (em) => {
        const active = await lockActiveCalls(em, partner.partnerId);
        if (active >= limit) return false;
        await insertCall(em, partner);
        peak = Math.max(peak, await readActiveCalls(em, partner.partnerId));
        return true;
      });
    const ends = live.slice(0, 3).map((callId) =>
      dataSource.transaction(async (em) => {
        await move(em, callId, 'completed');
        await em.query('SELECT pg_sleep(0.002)');
      }),
    );
    const admitted = await Promise.all([...Array.from({ length: 12 }, admit), ...ends]);
    const starts = admitted.slice(0, 12).filter(Boolean).length;
    expect(peak).toBeLessThanOrEqual(limit);
    // Three ended, so at most three new calls took their places; none beyond the limit.
    expect(starts).toBeLessThanOrEqual(3);
    const { counter, calls } = await counted(partner.partnerId);
    expect(counter).toBe(calls);
    expect(counter).toBe(limit - 3 + starts);
  });
});
