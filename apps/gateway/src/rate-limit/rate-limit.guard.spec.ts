// The per-key and per-account windows against real Postgres: a reseller's requests on behalf of its
// clients count in the reseller's account window as well as the client's, so neither more keys nor more
// clients multiply what the reseller may send.
import { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AppError, ErrorCode } from '@vap/messages';
import { runMigrations } from '@vap/persistence';
import { createTestDatabase, TestDatabase } from '@vap/testing';
import { AuthContext } from '../auth/auth-context';
import { GatewayConfig } from '../config/gateway.config';
import { gatewayDataSourceOptions } from '../database/data-source';
import { RateLimitGuard } from './rate-limit.guard';
import { RateLimitService } from './rate-limit.service';

const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

/** Per key 10 a minute, per account 6: an account's limit binds before any one key's. */
const KEY_LIMIT = 10;
const ACCOUNT_LIMIT = 6;

describe('RateLimitGuard (real Postgres)', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  let guard: RateLimitGuard;

  beforeAll(async () => {
    db = await createTestDatabase(SERVER_URL, 'vap_gateway_rate_limit');
    const config = Object.assign(new GatewayConfig(), {
      DATABASE_URL: db.url,
      RATE_LIMIT_GENERAL_PER_MINUTE: KEY_LIMIT,
      RATE_LIMIT_ACCOUNT_GENERAL_PER_MINUTE: ACCOUNT_LIMIT,
    });
    await runMigrations(gatewayDataSourceOptions(config));
    dataSource = await new DataSource(gatewayDataSourceOptions(config)).initialize();
    guard = new RateLimitGuard(new Reflector(), new RateLimitService(dataSource), config);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  /** One request of `auth` on a general route: its status and the headers the guard set. */
  async function request(auth: Pick<AuthContext, 'partnerId' | 'apiKeyId' | 'resellerId'>) {
    const headers: Record<string, string> = {};
    const res = { setHeader: (name: string, value: string) => (headers[name.toLowerCase()] = value) };
    const context = {
      switchToHttp: () => ({ getRequest: () => ({ auth }), getResponse: () => res }),
      getHandler: () => request,
      getClass: () => RateLimitGuard,
    } as unknown as ExecutionContext;
    try {
      await guard.canActivate(context);
      return { status: 200, headers, error: null };
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      return { status: err.status, headers, error: err };
    }
  }

  it("counts a reseller's requests on behalf of its clients in the reseller's account window too", async () => {
    const reseller = randomUUID();
    const clients = [randomUUID(), randomUUID()];
    const keys = [randomUUID(), randomUUID(), randomUUID()];
    const statuses: number[] = [];
    // 12 requests from three of the reseller's keys, for two clients: 4 per key, 6 per client.
    for (let i = 0; i < 12; i++) {
      const answer = await request({
        apiKeyId: keys[i % keys.length],
        partnerId: clients[i % clients.length],
        resellerId: reseller,
      });
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([...Array(ACCOUNT_LIMIT).fill(200), ...Array(12 - ACCOUNT_LIMIT).fill(429)]);

    // The 429 names the reseller's limit, with its headers.
    const limited = await request({ apiKeyId: randomUUID(), partnerId: clients[0], resellerId: reseller });
    expect(limited.status).toBe(429);
    expect(limited.error).toMatchObject({
      code: ErrorCode.RATE_LIMITED,
      message: expect.stringMatching(/6 requests per minute for the reseller's account.*all its clients/),
    });
    expect(limited.headers).toMatchObject({ 'x-ratelimit-limit': '6', 'x-ratelimit-remaining': '0' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);

    // The reseller's own requests share that window: it has nothing left either.
    expect((await request({ apiKeyId: randomUUID(), partnerId: reseller })).status).toBe(429);
    // A client's own key is counted in the client's window only, which the reseller did not exhaust.
    expect((await request({ apiKeyId: randomUUID(), partnerId: clients[1] })).status).toBe(200);
  });

  it("counts a reseller's own requests against what it may send on behalf of its clients", async () => {
    const reseller = randomUUID();
    for (let i = 0; i < ACCOUNT_LIMIT - 1; i++)
      expect((await request({ apiKeyId: randomUUID(), partnerId: reseller })).status).toBe(200);
    const last = await request({ apiKeyId: randomUUID(), partnerId: randomUUID(), resellerId: reseller });
    expect(last).toMatchObject({ status: 200, headers: { 'x-ratelimit-remaining': '0' } });
    expect(
      (await request({ apiKeyId: randomUUID(), partnerId: randomUUID(), resellerId: reseller })).status,
    ).toBe(429);
  });

  it("still limits a client's account on its own: the reseller's window does not widen it", async () => {
    const client = randomUUID();
    for (let i = 0; i < ACCOUNT_LIMIT; i++)
      expect((await request({ apiKeyId: randomUUID(), partnerId: client })).status).toBe(200);
    const limited = await request({ apiKeyId: randomUUID(), partnerId: client, resellerId: randomUUID() });
    expect(limited.status).toBe(429);
    expect(limited.error?.message).toMatch(/6 requests per minute for this account/);
  });
});
