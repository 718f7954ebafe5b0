// A reseller's pool against real Postgres: the live calls of a reseller and all its clients together are
// bounded by the reseller's concurrency limit, in the admission's own transaction, concurrent admissions
// of different clients included.
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { AppError, ErrorCode } from '@vap/messages';
import { runMigrations } from '@vap/persistence';
import { createTestDatabase, TestDatabase } from '@vap/testing';
import { CallsConfig } from '../config/calls.config';
import { callsDataSourceOptions } from '../database/data-source';
import { lockActiveCalls } from './partner-lock';
import { PartnerStanding } from './partner-standing';
import { assertPoolRoom, lockResellerPool } from './reseller-pool';

const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

describe('reseller pool', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  let standing: PartnerStanding;
  /** Each partner's carrier connection (one per carrier and account). */
  const connections = new Map<string, string>();

  beforeAll(async () => {
    db = await createTestDatabase(SERVER_URL, 'vap_reseller_pool');
    const options = callsDataSourceOptions(Object.assign(new CallsConfig(), { DATABASE_URL: db.url }));
    await runMigrations(options);
    dataSource = await new DataSource(options).initialize();
    standing = new PartnerStanding(dataSource);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  /** A partner as the gateway's snapshot tells it (a client with its reseller's id). */
  async function partner(concurrencyLimit: number, resellerId: string | null = null): Promise<string> {
    const id = randomUUID();
    await standing.record({
      id,
      status: 'approved',
      version: 1,
      concurrencyLimit,
      pricePerMinutePaise: null,
      resellerId,
    });
    const connectionId = randomUUID();
    await dataSource.query(
      `INSERT INTO calls.connections (id, partner_id, provider, name) VALUES ($1, $2, 'carrier_a', 'line')`,
      [connectionId, id],
    );
    connections.set(id, connectionId);
    return id;
  }

  async function insertCall(em: EntityManager, partnerId: string): Promise<string> {
    const connectionId = connections.get(partnerId)!;
    const id = randomUUID();
    await em.query(
      `INSERT INTO calls.calls (id, partner_id, agent_id, session_id, direction, from_number, to_number,
                                connection_id, provider, status, agent_settings)
       VALUES ($1, $2, $3, $4, 'outbound', '+918000000001', '+918000000002', $5, 'carrier_a', 'pending', '{}')`,
      [id, partnerId, randomUUID(), randomUUID(), connectionId],
    );
    return id;
  }

  /** An admission as start-call makes it: the pool, the account's own limit, then the insert. */
  function admit(partnerId: string, ownLimit: number): Promise<string> {
    return dataSource.transaction(async (em) => {
      const pool = await lockResellerPool(em, partnerId);
      const active = await lockActiveCalls(em, partnerId);
      if (active >= ownLimit) throw new AppError(ErrorCode.LIMIT_REACHED, 'own limit');
      assertPoolRoom(pool);
      return insertCall(em, partnerId);
    });
  }

  it("bounds the live calls of a reseller and all its clients by the reseller's limit", async () => {
    const reseller = await partner(3);
    const [a, b] = [await partner(2, reseller), await partner(2, reseller)];
    await admit(reseller, 3);
    const first = await admit(a, 2);
    await admit(b, 2);
    // Each account is within its own limit, but the pool is full.
    const refused = admit(a, 2);
    await expect(refused).rejects.toMatchObject({
      code: ErrorCode.LIMIT_REACHED,
      message: expect.stringMatching(/Reseller concurrency limit reached: 3 of 3 calls of the reseller/),
    });
    await expect(admit(reseller, 3)).rejects.toMatchObject({ code: ErrorCode.LIMIT_REACHED });
    // An end frees a slot of the pool for any of them.
    await dataSource.query(`UPDATE calls.calls SET status = 'completed' WHERE id = $1`, [first]);
    await expect(admit(b, 2)).resolves.toEqual(expect.any(String));
  });

  it('admits exactly the pool limit when clients start at once', async () => {
    const reseller = await partner(4);
    const clients = [await partner(5, reseller), await partner(5, reseller), await partner(5, reseller)];
    const outcomes = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) => admit(clients[i % clients.length], 5)),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(4);
    for (const o of outcomes.filter((o) => o.status === 'rejected'))
      expect((o as PromiseRejectedResult).reason).toMatchObject({ code: ErrorCode.LIMIT_REACHED });
  });

  it('leaves an account outside any pool to its own limit', async () => {
    const alone = await partner(2);
    await dataSource.transaction(async (em) => expect(await lockResellerPool(em, alone)).toBeNull());
    await admit(alone, 2);
    await admit(alone, 2);
    await expect(admit(alone, 2)).rejects.toMatchObject({ message: 'own limit' });
  });

  it("keeps a client's reseller once told, also from a sender that tells none", async () => {
    const reseller = await partner(1);
    const client = await partner(3, reseller);
    await standing.record({
      id: client,
      status: 'approved',
      version: 2,
      concurrencyLimit: 3,
      pricePerMinutePaise: null,
    });
    await admit(reseller, 1);
    await expect(admit(client, 3)).rejects.toMatchObject({
      message: expect.stringMatching(/Reseller concurrency limit/),
    });
  });
});
