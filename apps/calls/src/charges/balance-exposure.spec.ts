// What a start counts against a partner's balance, against a real Postgres with the calls migrations: which
// balance counts when the command's snapshot and the projection (PartnerBalances) disagree, and the cost of
// calls the balance does not show yet, from one view of the projection even when the gateway's charge event
// lands while a start is reading.
import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { PartnerDto } from '@vap/api';
import { minimumStartBalancePaise, PartnerContext } from '@vap/messages';
import { runMigrations } from '@vap/persistence';
import { createTestDatabase, TestDatabase } from '@vap/testing';
import { CallsConfig } from '../config/calls.config';
import { callsDataSourceOptions } from '../database/data-source';
import { PartnerBalances } from '../partners/partner-balances';
import { saveCall, saveConnection } from '../testing/call-rows';
import { startFunds } from './balance-exposure';

jest.setTimeout(30_000);

const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
/** INR 4.00 a minute: a 34-second call costs 227 paise, and a start needs 200. */
const PRICE = 400;

describe('startFunds', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  let balances: PartnerBalances;

  beforeAll(async () => {
    db = await createTestDatabase(SERVER_URL, 'vap_calls_start_funds');
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
    pricePerMinutePaise: null,
    version,
  });

  /** The gateway's partner event, recorded as the partner events consumer records it. */
  const event = (id: string, balanceInr: number, version: number) =>
    dataSource.transaction((em) =>
      balances.record(em, {
        id,
        balance_inr: balanceInr,
        version,
        updated_at: new Date().toISOString(),
      } as PartnerDto),
    );

  /** A call of the partner that was answered, ran `seconds` and has just ended (its charge not yet seen). */
  async function endedCall(partnerId: string, seconds: number): Promise<void> {
    const endedAt = new Date();
    await saveCall(dataSource, {
      partnerId,
      connectionId: await saveConnection(dataSource, partnerId, 'sandbox'),
      provider: 'sandbox',
      providerCallId: `SB${randomBytes(6).toString('hex')}`,
      status: 'completed',
      billDurationSeconds: seconds,
      durationSeconds: seconds,
      startedAt: new Date(endedAt.getTime() - seconds * 1000),
      endedAt,
    });
  }

  /** The partner's INR 2.00, seen by the projection at version 1, and a 34-second call that just ended. */
  async function partnerWithEndedCall(): Promise<string> {
    const id = randomUUID();
    await event(id, 2, 1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await endedCall(id, 34);
    return id;
  }

  const spendable = ({ balancePaise, committedPaise }: { balancePaise: number; committedPaise: number }) =>
    balancePaise - committedPaise;

  /** The balance a start of this partner counts (it has no calls, so nothing is committed). */
  const counted = async (partner: PartnerContext) => {
    const funds = await startFunds(dataSource.manager, partner, PRICE);
    expect(funds.committedPaise).toBe(0);
    return funds.balancePaise;
  };

  it("counts the projection when it has seen a change the command's snapshot predates", async () => {
    const id = randomUUID();
    await balances.seed(snapshot(id, 200, 3));
    // A call was charged: the gateway debited INR 2.00 (version 4) and its event reached the projection,
    // while a start command still carries the snapshot read just before the charge.
    await event(id, 0, 4);
    expect(await counted(snapshot(id, 200, 3))).toBe(0);
  });

  it('counts the snapshot when it is as new as the projection or newer', async () => {
    const id = randomUUID();
    await balances.seed(snapshot(id, 200, 3));
    expect(await counted(snapshot(id, 200, 3))).toBe(200);
    // A top-up the projection has not heard of yet.
    expect(await counted(snapshot(id, 50_000, 4))).toBe(50_000);
  });

  it('seeds only where no event was seen, and keeps the newest event', async () => {
    const id = randomUUID();
    await event(id, 10, 7);
    await balances.seed(snapshot(id, 99_999, 2));
    expect(await counted(snapshot(id, 99_999, 2))).toBe(1000);
  });

  it("counts a call that ended after the projection's balance against it", async () => {
    const id = await partnerWithEndedCall();
    const funds = await startFunds(dataSource.manager, snapshot(id, 200, 1), PRICE);
    expect(funds).toEqual({ balancePaise: 200, committedPaise: 227 });
    expect(spendable(funds)).toBeLessThan(minimumStartBalancePaise(PRICE));
  });

  it('once the charge has reached the projection, counts the charged balance and not the call again', async () => {
    const id = await partnerWithEndedCall();
    await new Promise((resolve) => setTimeout(resolve, 5));
    await event(id, 0, 2);
    // The start still carries the gateway's snapshot from before the charge.
    expect(await startFunds(dataSource.manager, snapshot(id, 200, 1), PRICE)).toEqual({
      balancePaise: 0,
      committedPaise: 0,
    });
  });

  it('a charge event committed while a start reads: the call is counted, in the balance or in the cost', async () => {
    const id = await partnerWithEndedCall();
    let statements = 0;
    // Every statement the read makes is followed by the charge's event (committed by the consumer on its own
    // connection), as if it had landed at that moment: a read in two statements would take the balance from
    // before the charge and the cost from after it.
    const racing = new Proxy(dataSource.manager, {
      get(target, property, receiver) {
        if (property !== 'query') return Reflect.get(target, property, receiver);
        return async (sql: string, parameters?: unknown[]) => {
          const result: unknown = await target.query(sql, parameters);
          if (statements++ === 0) {
            await new Promise((resolve) => setTimeout(resolve, 5));
            await event(id, 0, 2);
          }
          return result;
        };
      },
    }) as EntityManager;
    const funds = await startFunds(racing, snapshot(id, 200, 1), PRICE);
    expect(statements).toBeGreaterThan(0);
    expect(spendable(funds)).toBeLessThan(minimumStartBalancePaise(PRICE));
  });
});
