// The calls service's projection of partners' balances against a real Postgres: which balance a start
// counts when the command's snapshot and the projection disagree.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { PartnerContext, PartnerDto } from '@vap/contracts';
import { runMigrations } from '@vap/persistence';
import { createTestDatabase, TestDatabase } from '@vap/testing';
import { CallsConfig } from '../config/calls.config';
import { callsDataSourceOptions } from '../database/data-source';
import { PartnerBalances } from './partner-balances';

jest.setTimeout(30_000);

const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

describe('PartnerBalances', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  let balances: PartnerBalances;

  beforeAll(async () => {
    db = await createTestDatabase(SERVER_URL, 'vap_calls_partner_balances');
    const config = Object.assign(new CallsConfig(), { DATABASE_URL: db.url });
    await runMigrations(callsDataSourceOptions(config));
    dataSource = await new DataSource(callsDataSourceOptions(config)).initialize();
    balances = new PartnerBalances(dataSource);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  const snapshot = (id: string, balancePaise: number, version: number): PartnerContext => ({
    id,
    status: 'approved',
    voiceTier: 'standard',
    concurrencyLimit: 5,
    balancePaise,
    version,
  });

  /** The gateway's partner event after a change: version one more, balance in rupees. */
  const event = (id: string, balanceInr: number, version: number) =>
    dataSource.transaction((em) =>
      balances.record(em, {
        id,
        balance_inr: balanceInr,
        version,
        updated_at: new Date().toISOString(),
      } as PartnerDto),
    );

  it("counts the projection when it has seen a change the command's snapshot predates", async () => {
    const id = randomUUID();
    await balances.seed(snapshot(id, 200, 3));
    // A call was charged: the gateway debited INR 2.00 (version 4) and its event reached the projection,
    // while a start command still carries the snapshot read just before the charge.
    await event(id, 0, 4);
    expect(await balances.freshest(snapshot(id, 200, 3))).toBe(0);
  });

  it('counts the snapshot when it is as new as the projection or newer', async () => {
    const id = randomUUID();
    await balances.seed(snapshot(id, 200, 3));
    expect(await balances.freshest(snapshot(id, 200, 3))).toBe(200);
    // A top-up the projection has not heard of yet.
    expect(await balances.freshest(snapshot(id, 50_000, 4))).toBe(50_000);
  });

  it('seeds only where no event was seen, and keeps the newest event', async () => {
    const id = randomUUID();
    await event(id, 10, 7);
    await balances.seed(snapshot(id, 99_999, 2));
    expect(await balances.freshest(snapshot(id, 99_999, 2))).toBe(1000);
  });
});
