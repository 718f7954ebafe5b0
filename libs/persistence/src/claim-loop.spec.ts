// ClaimLoop's stop against real Postgres (its LISTEN connection): what a claim in progress returns still
// runs before stop() resolves, and nothing is claimed afterwards.
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
      databaseUrl: db.url,
      channel: 'claim_loop_test',
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
});
