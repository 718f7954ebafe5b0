// ClaimLoop against real Postgres: what a claim in progress returns still runs before stop() resolves and
// nothing is claimed afterwards; a loop that listens wakes on another process's NOTIFY, and listens again
// after losing its LISTEN connection.
import { Client } from 'pg';
import { createTestDatabase, TestDatabase } from '@vap/testing';
import { ClaimLoop } from './claim-loop';

const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

describe('ClaimLoop stop', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase(SERVER_URL, 'vap_claim_loop');
  });

  afterAll(async () => {
    await db?.drop();
  });

  it('waits for the claim in progress and runs what it claimed', async () => {
    const claims: number[] = [];
    const done: number[] = [];
    let releaseClaim!: () => void;
    let claimStarted!: () => void;
    const started = new Promise<void>((resolve) => (claimStarted = resolve));
    const loop = new ClaimLoop<number>({
      label: 'items',
      channel: 'claim_loop_test',
      listen: { databaseUrl: db.url },
      pollMs: 60_000,
      concurrency: 2,
      claim: async (limit) => {
        claims.push(limit);
        if (claims.length > 1) return [];
        claimStarted();
        await new Promise<void>((release) => (releaseClaim = release));
        return [1, 2];
      },
      run: async (item) => {
        await new Promise((r) => setTimeout(r, 20));
        done.push(item);
      },
      log: { warn: () => undefined, error: () => undefined },
    });

    await loop.start();
    await started;
    let resolved = false;
    const stopped = loop.stop().then(() => (resolved = true));
    await new Promise((r) => setTimeout(r, 30));
    expect(resolved).toBe(false);

    releaseClaim();
    await stopped;
    expect(done.sort()).toEqual([1, 2]);
    const claimsAtStop = claims.length;
    loop.wake();
    await new Promise((r) => setTimeout(r, 30));
    expect(claims).toHaveLength(claimsAtStop);
  });

  it('wakes on NOTIFY from another process, and listens again after losing its connection', async () => {
    const sql = new Client({ connectionString: db.url });
    await sql.connect();
    const wakes: number[] = [];
    const loop = new ClaimLoop<number>({
      label: 'items',
      channel: 'claim_loop_notify',
      listen: { databaseUrl: db.url, applicationName: 'claim-loop-notify-test' },
      pollMs: 60_000,
      concurrency: 1,
      claim: async () => {
        wakes.push(Date.now());
        return [];
      },
      run: async () => undefined,
      log: { warn: () => undefined, error: () => undefined },
    });
    const listener = async () =>
      (
        await sql.query<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity WHERE application_name = 'claim-loop-notify-test' AND query LIKE 'LISTEN %'`,
        )
      ).rows[0];
    const until = async <T>(what: () => Promise<T | undefined | false>): Promise<T> => {
      for (let i = 0; i < 200; i++) {
        const found = await what();
        if (found) return found;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error('timed out');
    };
    try {
      await loop.start();
      const first = await until(listener);
      const before = wakes.length;
      await sql.query(`SELECT pg_notify('claim_loop_notify', '')`);
      await until(async () => wakes.length > before);

      await sql.query('SELECT pg_terminate_backend($1)', [first.pid]);
      const second = await until(async () => {
        const row = await listener();
        return row && row.pid !== first.pid && row;
      });
      expect(second.pid).not.toBe(first.pid);
      const again = wakes.length;
      await sql.query(`SELECT pg_notify('claim_loop_notify', '')`);
      await until(async () => wakes.length > again);

      await loop.stop();
      await until(async () => !(await listener()));
    } finally {
      await loop.stop();
      await sql.end();
    }
  });
});
