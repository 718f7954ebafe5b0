// A reseller's client's rate card in the calls service, against a real Postgres with the calls migrations: the
// partner's standing keeps it by version, the call's charge and its session's credits are fixed at it (a test
// run's at the test rate), and the balance guard counts the client's live calls at it.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { PartnerDto } from '@vap/api';
import { PartnerContext } from '@vap/messages';
import { runMigrations, tableOf } from '@vap/persistence';
import { createTestDatabase, TestDatabase } from '@vap/testing';
import { CallSession } from '../calls/entities/call-session.entity';
import { CallsConfig } from '../config/calls.config';
import { callsDataSourceOptions } from '../database/data-source';
import { PartnerBalances } from '../partners/partner-balances';
import { PartnerStanding, standingPricePerMinutePaise } from '../partners/partner-standing';
import { saveCall, saveConnection } from '../testing/call-rows';
import { overdrawnCalls } from './balance-exposure';
import { recordCallCharge } from './call-charges';

jest.setTimeout(30_000);

const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const PRICES = { CALL_PRICE_PER_MINUTE_PAISE: 400, TEST_CALL_PRICE_PER_MINUTE_PAISE: 100 };

describe('a client account’s rate card', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  let standing: PartnerStanding;
  let balances: PartnerBalances;

  beforeAll(async () => {
    db = await createTestDatabase(SERVER_URL, 'vap_calls_rate_card');
    const config = Object.assign(new CallsConfig(), { DATABASE_URL: db.url });
    await runMigrations(callsDataSourceOptions(config));
    dataSource = await new DataSource(callsDataSourceOptions(config)).initialize();
    standing = new PartnerStanding(dataSource);
    balances = new PartnerBalances(dataSource);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  const view = (id: string, version: number, pricePerMinutePaise: number | null): PartnerContext => ({
    id,
    status: 'approved',
    voiceTier: 'standard',
    concurrencyLimit: 5,
    balancePaise: 10_000,
    pricePerMinutePaise,
    version,
  });

  /** A call of the partner answered `seconds` ago and just ended, with its billed seconds. */
  async function endedCall(
    partnerId: string,
    seconds: number,
    billingRate: 'standard' | 'test' = 'standard',
  ) {
    return saveCall(dataSource, {
      partnerId,
      connectionId: await saveConnection(dataSource, partnerId, 'sandbox'),
      provider: 'sandbox',
      status: 'completed',
      billDurationSeconds: seconds,
      durationSeconds: seconds,
      billingRate,
      startedAt: new Date(Date.now() - seconds * 1000),
      endedAt: new Date(),
    });
  }

  const charged = async (callId: string) => {
    const [row] = (await dataSource.query(
      `SELECT amount_paise FROM ${tableOf(dataSource, 'call_charges')} WHERE call_id = $1`,
      [callId],
    )) as { amount_paise: number }[];
    const session = await dataSource.getRepository(CallSession).findOneByOrFail({ callId });
    expect(session.creditsUsedPaise).toBe(row.amount_paise);
    return row.amount_paise;
  };

  it('keeps the rate card of the newest view, from commands and events alike', async () => {
    const id = randomUUID();
    await standing.record(view(id, 2, 600));
    expect(await standingPricePerMinutePaise(dataSource.manager, id)).toBe(600);
    // An older view (a late event) changes nothing; a newer one clears it.
    await standing.record(view(id, 1, null));
    expect(await standingPricePerMinutePaise(dataSource.manager, id)).toBe(600);
    await standing.record(view(id, 3, null));
    expect(await standingPricePerMinutePaise(dataSource.manager, id)).toBeNull();
    expect(await standingPricePerMinutePaise(dataSource.manager, randomUUID())).toBeNull();
  });

  it('fixes a client’s call at its rate card, and a direct account’s at the platform’s price', async () => {
    const client = randomUUID();
    await standing.record(view(client, 1, 600));
    const call = await endedCall(client, 95);
    await dataSource.transaction((em) => recordCallCharge(em, call, PRICES));
    expect(await charged(call.id)).toBe(950); // 95 s at INR 6.00 a minute

    const direct = randomUUID();
    await standing.record(view(direct, 1, null));
    const other = await endedCall(direct, 95);
    await dataSource.transaction((em) => recordCallCharge(em, other, PRICES));
    expect(await charged(other.id)).toBe(634); // 633.33 rounds up
  });

  it('prices a client’s test run at the test rate, not its rate card', async () => {
    const client = randomUUID();
    await standing.record(view(client, 1, 600));
    const call = await endedCall(client, 60, 'test');
    await dataSource.transaction((em) => recordCallCharge(em, call, PRICES));
    expect(await charged(call.id)).toBe(100);
  });

  it('ends a client’s live call once its rate card has used up the balance', async () => {
    // Two accounts with INR 5.00 each and a call live for 60 s: INR 4.00 at the platform's price, INR 6.00
    // at the client's rate card. Only the client's call is overdrawn.
    const client = randomUUID();
    const direct = randomUUID();
    for (const [id, price] of [
      [client, 600],
      [direct, null],
    ] as const) {
      await standing.record(view(id, 1, price));
      await dataSource.transaction((em) =>
        balances.record(em, {
          id,
          balance_inr: 5,
          version: 1,
          updated_at: new Date().toISOString(),
        } as PartnerDto),
      );
      await saveCall(dataSource, {
        partnerId: id,
        connectionId: await saveConnection(dataSource, id, 'sandbox'),
        provider: 'sandbox',
        startedAt: new Date(Date.now() - 60_000),
      });
    }
    const overdrawn = await overdrawnCalls(dataSource.manager, PRICES.CALL_PRICE_PER_MINUTE_PAISE, 30);
    const partners = new Set(overdrawn.map((c) => c.partner_id));
    expect(partners.has(client)).toBe(true);
    expect(partners.has(direct)).toBe(false);
  });
});
