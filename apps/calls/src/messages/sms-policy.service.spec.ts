// The SMS policy against a real Postgres with the calls migrations: destinations refused by default, lifted by
// the account's own list, and the daily and per-call caps counted in the send's transaction.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AppError, ErrorCode, MessageId, SEND_SMS_MAX_PER_CALL } from '@vap/messages';
import { runMigrations } from '@vap/persistence';
import { createTestDatabase, TestDatabase } from '@vap/testing';
import { CallsConfig } from '../config/calls.config';
import { callsDataSourceOptions } from '../database/data-source';
import { DefaultLineService } from '../telephony/connections/default-line.service';
import { Message } from './entities/message.entity';
import { SmsPolicyService } from './sms-policy.service';

jest.setTimeout(30_000);

const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

/** The refusal's code, or null when the promise resolved. */
async function codeOf(work: Promise<unknown>): Promise<ErrorCode | null> {
  try {
    await work;
    return null;
  } catch (err) {
    if (err instanceof AppError) return err.code;
    throw err;
  }
}

describe('SmsPolicyService', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  let config: CallsConfig;
  let policy: SmsPolicyService;

  beforeAll(async () => {
    db = await createTestDatabase(SERVER_URL, 'vap_calls_sms_policy');
    config = Object.assign(new CallsConfig(), { DATABASE_URL: db.url, SMS_MAX_PER_DAY: 5 });
    await runMigrations(callsDataSourceOptions(config));
    dataSource = await new DataSource(callsDataSourceOptions(config)).initialize();
    policy = new SmsPolicyService(dataSource, config, new DefaultLineService(dataSource));
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  const sent = (partnerId: string, callId: string | null = null) =>
    dataSource.getRepository(Message).insert({
      id: MessageId.format(randomUUID()),
      partnerId,
      direction: 'outbound',
      status: 'sent',
      toNumber: '+919876543210',
      fromNumber: '+919812300071',
      body: 'hello',
      segments: 1,
      provider: 'carrier_b',
      connectionId: randomUUID(),
      carrierMessageId: null,
      errorCode: null,
      errorMessage: null,
      callId,
      agentId: null,
      sendAfter: null,
      sendAttempts: 1,
      sentAt: new Date(),
      deliveredAt: null,
    });
  const caps = (partnerId: string, callId: string | null = null) =>
    codeOf(dataSource.transaction((em) => policy.assertUnderCaps(em, partnerId, callId)));

  it('by default refuses premium and satellite numbers, fraud-flagged ranges and unlisted countries', async () => {
    const partner = randomUUID();
    expect(await codeOf(policy.assertDestination(partner, '+19005551234'))).toBe(
      ErrorCode.SMS_DESTINATION_BLOCKED,
    );
    expect(await codeOf(policy.assertDestination(partner, '+882123456789'))).toBe(
      ErrorCode.SMS_DESTINATION_BLOCKED,
    );
    expect(await codeOf(policy.assertDestination(partner, '+5351234567'))).toBe(
      ErrorCode.SMS_DESTINATION_BLOCKED,
    );
    expect(await codeOf(policy.assertDestination(partner, '+4915123456789'))).toBe(
      ErrorCode.SMS_COUNTRY_NOT_ALLOWED,
    );
    // The platform's default list (IN).
    expect(await codeOf(policy.assertDestination(partner, '+919876543210'))).toBeNull();
    expect(await codeOf(policy.assertDestination(partner, '+14155551001'))).toBe(
      ErrorCode.SMS_COUNTRY_NOT_ALLOWED,
    );
  });

  it("adds the countries of the account's own numbers to the default (the sandbox number's is US)", async () => {
    const partner = randomUUID();
    expect(await policy.get(partner)).toMatchObject({
      allowed_countries: null,
      default_allowed_countries: ['IN', 'US'],
      max_per_day: 5,
      max_per_day_limit: 5,
      sent_last_24_hours: 0,
    });
    expect(await codeOf(policy.assertDestination(partner, '+14155551001'))).toBeNull();
  });

  it('allows a listed country, lifts a fraud-flagged range only for its own country, never premium', async () => {
    const partner = randomUUID();
    const dto = await policy.update(partner, { allowed_countries: ['DE', 'CU', 'US'] });
    expect(dto).toMatchObject({ allowed_countries: ['CU', 'DE', 'US'], max_per_day: 5, max_per_call: 3 });
    expect(await codeOf(policy.assertDestination(partner, '+4915123456789'))).toBeNull();
    expect(await codeOf(policy.assertDestination(partner, '+5351234567'))).toBeNull();
    expect(await codeOf(policy.assertDestination(partner, '+37259123456'))).toBe(
      ErrorCode.SMS_DESTINATION_BLOCKED,
    );
    expect(await codeOf(policy.assertDestination(partner, '+19005551234'))).toBe(
      ErrorCode.SMS_DESTINATION_BLOCKED,
    );
    // The account's list replaces the default: IN is no longer in it.
    expect(await codeOf(policy.assertDestination(partner, '+919876543210'))).toBe(
      ErrorCode.SMS_COUNTRY_NOT_ALLOWED,
    );
    expect((await policy.update(partner, { allowed_countries: null })).allowed_countries).toBeNull();
    expect(await codeOf(policy.assertDestination(partner, '+919876543210'))).toBeNull();
  });

  it('refuses an unknown country and a daily cap above the platform limit', async () => {
    const partner = randomUUID();
    expect(await codeOf(policy.update(partner, { allowed_countries: ['XX'] }))).toBe(
      ErrorCode.VALIDATION_ERROR,
    );
    expect(await codeOf(policy.update(partner, { max_per_day: 6 }))).toBe(ErrorCode.VALIDATION_ERROR);
    expect((await policy.get(partner)).updated_at).toBeNull();
  });

  it('refuses past the daily cap, with when one more may go', async () => {
    const partner = randomUUID();
    await policy.update(partner, { max_per_day: 2 });
    await sent(partner);
    expect(await caps(partner)).toBeNull();
    await sent(partner);
    const refusal = await dataSource
      .transaction((em) => policy.assertUnderCaps(em, partner, null))
      .catch((err: AppError) => err);
    expect(refusal).toMatchObject({ code: ErrorCode.SMS_LIMIT_REACHED, status: 429 });
    const retryAt = Date.parse((refusal as AppError).retryAt!);
    expect(retryAt).toBeGreaterThan(Date.now() + 23 * 3600_000);
    expect(await policy.get(partner)).toMatchObject({ sent_last_24_hours: 2, max_per_day: 2 });
    // Another account's messages are its own.
    expect(await caps(randomUUID())).toBeNull();
  });

  it("bounds an agent's messages per call by the account's max_per_call", async () => {
    const partner = randomUUID();
    const call = randomUUID();
    await policy.update(partner, { max_per_call: 1 });
    expect(await caps(partner, call)).toBeNull();
    await sent(partner, call);
    expect(await caps(partner, call)).toBe(ErrorCode.SMS_LIMIT_REACHED);
    expect(await caps(partner, randomUUID())).toBeNull();
    expect((await policy.update(partner, { max_per_call: null })).max_per_call).toBe(SEND_SMS_MAX_PER_CALL);
  });
});
