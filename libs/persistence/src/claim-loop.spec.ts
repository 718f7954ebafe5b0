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

  /**
   * A loop whose claim() hands out numbered items from `queued` (or as `claim` says); items run until released.
   * `drains` as ClaimLoopOptions.drains.
   */
  function loopOf(
    concurrency: number,
    {
      claim = async (limit: number, items: number[]) => items.splice(0, limit),
      drains,
    }: { claim?: (limit: number, items: number[]) => Promise<number[]>; drains?: boolean } = {},
  ) {
    const limits: number[] = [];
    const queued: number[] = [];
    const runs = new Map<number, () => void>();
    const loop = new ClaimLoop<number>({
      label: 'items',
      channel: `claim_loop_${concurrency}_${Math.random()}`,
      pollMs: 60_000,
      concurrency,
      drains,
      claim: (limit) => {
        limits.push(limit);
        return claim(limit, queued);
      },
      run: (item) => new Promise<void>((resolve) => runs.set(item, resolve)),
      log: { warn: () => undefined, error: () => undefined },
    });
    return { loop, limits, queued, runs };
  }
  const tick = () => new Promise((r) => setTimeout(r, 10));

  describe('slots reserved for items the process claims itself', () => {
    it('keeps claim() off reserved slots; adopt runs the items and frees the slots they did not fill', async () => {
      const { loop, limits, queued, runs } = loopOf(3);
      await loop.start();
      await tick();
      const reservation = loop.reserve(5, 60_000)!;
      expect(reservation.slots).toBe(3);
      expect(loop.reserve(1, 60_000)).toBeNull();
      queued.push(100, 101);
      loop.wake();
      await tick();
      expect(runs.size).toBe(0);
      reservation.adopt([1]);
      await tick();
      // Item 1 runs; the two slots it left go to claim() at once.
      expect([...runs.keys()].sort()).toEqual([1, 100, 101]);
      expect(limits.at(-1)).toBe(2);
      for (const done of runs.values()) done();
      await loop.stop();
    });

    it('leaves a claim in progress the slots it may fill', async () => {
      let finishClaim!: () => void;
      let claimStarted!: () => void;
      const started = new Promise<void>((resolve) => (claimStarted = resolve));
      const { loop, queued, runs } = loopOf(3, {
        claim: (limit, items) => {
          claimStarted();
          return new Promise((resolve) => (finishClaim = () => resolve(items.splice(0, limit))));
        },
      });
      queued.push(100, 101, 102);
      await loop.start();
      await started;
      expect(loop.reserve(1, 60_000)).toBeNull();
      finishClaim();
      await tick();
      expect([...runs.keys()].sort()).toEqual([100, 101, 102]);
      for (const done of runs.values()) done();
      await loop.stop();
    });

    it('release and expiry give the slots back; an expired reservation adopts nothing', async () => {
      const { loop, runs } = loopOf(2);
      await loop.start();
      const released = loop.reserve(2, 60_000)!;
      released.release();
      const expiring = loop.reserve(2, 30)!;
      expect(expiring.slots).toBe(2);
      await new Promise((r) => setTimeout(r, 60));
      expiring.adopt([7]);
      await tick();
      expect(runs.size).toBe(0);
      const again = loop.reserve(2, 60_000)!;
      expect(again.slots).toBe(2);
      again.release();
      await loop.stop();
    });

    it('stop() waits for an open reservation, and runs what it adopts', async () => {
      const { loop, runs } = loopOf(2);
      await loop.start();
      const reservation = loop.reserve(1, 60_000)!;
      let stopped = false;
      const stopping = loop.stop().then(() => (stopped = true));
      await tick();
      expect(stopped).toBe(false);
      expect(loop.reserve(1, 60_000)).toBeNull();
      reservation.adopt([9]);
      await tick();
      expect([...runs.keys()]).toEqual([9]);
      expect(stopped).toBe(false);
      runs.get(9)!();
      await stopping;
      expect(stopped).toBe(true);
    });
  });

  describe('a loop whose runs drain the queue', () => {
    it('claims again after a run only when woken during it', async () => {
      const { loop, limits, queued, runs } = loopOf(1, { drains: true });
      queued.push(1);
      await loop.start();
      await tick();
      expect(limits).toHaveLength(1);
      runs.get(1)!();
      await tick();
      // Nothing woke the loop while the pass ran: no claim that could only come back empty.
      expect(limits).toHaveLength(1);

      loop.wake();
      await tick();
      expect(limits).toHaveLength(2);
      queued.push(2);
      loop.wake();
      await tick();
      expect([...runs.keys()]).toEqual([1, 2]);
      // Woken while the pass ran (its slot taken): the pass's end claims, and finds what was queued meanwhile.
      queued.push(3);
      loop.wake();
      await tick();
      expect(limits).toHaveLength(3);
      runs.get(2)!();
      await tick();
      expect(limits).toHaveLength(4);
      expect([...runs.keys()]).toEqual([1, 2, 3]);
      runs.get(3)!();
      await loop.stop();
    });

    it('without drains, claims again after every run', async () => {
      const { loop, limits, queued, runs } = loopOf(1);
      queued.push(1);
      await loop.start();
      await tick();
      // The claim filled every free slot, so there may be more: it asks again once the slot is free.
      runs.get(1)!();
      await tick();
      expect(limits).toHaveLength(2);
      await loop.stop();
    });
  });
});
