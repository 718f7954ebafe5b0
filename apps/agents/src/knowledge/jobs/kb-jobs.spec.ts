// The knowledge-base job queue and worker against a real Postgres: SKIP LOCKED claims shared by workers,
// leases that expire and fence the old holder out, retries with backoff, and permanent failures.
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { createTestDatabase, TestDatabase } from '@vap/testing';
import { runMigrations } from '@vap/persistence';
import { AgentsConfig } from '../../config/agents.config';
import { KnowledgeConfig } from '../../config/knowledge.config';
import { agentsDataSourceOptions } from '../../database/data-source';
import { ClaimedKbJob, KbJobHandler, LeaseLostError, PermanentJobError } from './kb-job';
import { KbJobsRepository } from './kb-jobs.repository';
import { KbWorkerService, retryDelayMs } from './kb-worker.service';

jest.setTimeout(30_000);

const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function config(overrides: Partial<KnowledgeConfig> = {}): KnowledgeConfig {
  return Object.assign(new KnowledgeConfig(), {
    KB_JOB_LEASE_MS: 300,
    KB_JOB_RETRY_BASE_MS: 100,
    KB_JOB_MAX_ATTEMPTS: 3,
    KB_JOB_POLL_MS: 50,
    KB_WORKER_CONCURRENCY: 2,
    ...overrides,
  });
}

describe('knowledge-base job queue', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  const partnerId = randomUUID();

  beforeAll(async () => {
    db = await createTestDatabase(SERVER_URL, 'vap_kb_jobs');
    const options = agentsDataSourceOptions(Object.assign(new AgentsConfig(), { DATABASE_URL: db.url }));
    await runMigrations(options);
    dataSource = await new DataSource(options).initialize();
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  beforeEach(async () => {
    await dataSource.query('DELETE FROM agents.kb_jobs');
  });

  const enqueue = (repo: KbJobsRepository, n: number) =>
    dataSource.transaction(async (em) => {
      for (let i = 0; i < n; i++)
        await repo.enqueue(em, { kind: 'purge_link', partnerId, linkId: randomUUID() });
    });
  const jobRow = async (id: string) =>
    (
      (await dataSource.query('SELECT * FROM agents.kb_jobs WHERE id = $1', [id])) as Record<
        string,
        unknown
      >[]
    )[0];

  it('lets concurrent workers claim each job once', async () => {
    // Leases that outlive the test: a loaded machine's slow claims must not see the first ones expire.
    const repo = new KbJobsRepository(dataSource, config({ KB_JOB_LEASE_MS: 60_000 }));
    await enqueue(repo, 12);
    const claims = await Promise.all(Array.from({ length: 4 }, (_, i) => repo.claim(`w${i}`, 5)));
    const ids = claims.flat().map((j) => j.id);
    expect(ids).toHaveLength(12);
    expect(new Set(ids).size).toBe(12);
    expect(await repo.claim('late', 5)).toEqual([]);
    for (const job of claims.flat())
      expect(job).toMatchObject({ kind: 'purge_link', partnerId, attempts: 1, maxAttempts: 3 });
  });

  it('hands a job whose lease ran out to another worker and fences the first one out', async () => {
    const repo = new KbJobsRepository(dataSource, config());
    await enqueue(repo, 1);
    const [first] = await repo.claim('crashed', 1);
    expect(await repo.claim('other', 1)).toEqual([]);
    await sleep(400);
    const [second] = await repo.claim('other', 1);
    expect(second).toMatchObject({ id: first.id, attempts: 2 });
    expect(second.token).not.toBe(first.token);

    expect(await repo.renew(first)).toBe(false);
    await expect(dataSource.transaction((em) => repo.finish(em, first))).rejects.toBeInstanceOf(
      LeaseLostError,
    );
    expect(await dataSource.transaction((em) => repo.retry(em, first, 'late', 0))).toBe(false);
    await dataSource.transaction((em) => repo.finish(em, second));
    expect(await jobRow(first.id)).toBeUndefined();
  });

  it('keeps a renewed lease', async () => {
    const repo = new KbJobsRepository(dataSource, config());
    await enqueue(repo, 1);
    const [job] = await repo.claim('busy', 1);
    for (let i = 0; i < 4; i++) {
      await sleep(150);
      expect(await repo.renew(job)).toBe(true);
    }
    expect(await repo.claim('other', 1)).toEqual([]);
  });

  it('schedules retries later and keeps failed jobs out of the queue', async () => {
    const repo = new KbJobsRepository(dataSource, config());
    await enqueue(repo, 2);
    const [a, b] = await repo.claim('w', 2);
    expect(await dataSource.transaction((em) => repo.retry(em, a, 'boom', 200))).toBe(true);
    expect(await dataSource.transaction((em) => repo.fail(em, b, 'broken'))).toBe(true);
    expect(await repo.claim('w', 2)).toEqual([]);
    await sleep(250);
    const [again] = await repo.claim('w', 2);
    expect(again).toMatchObject({ id: a.id, attempts: 2 });
    expect(await jobRow(b.id)).toMatchObject({ status: 'failed', last_error: 'broken', locked_by: null });
  });

  it('holds a job queued for later until its time', async () => {
    const repo = new KbJobsRepository(dataSource, config());
    await dataSource.transaction((em) =>
      repo.enqueue(em, {
        kind: 'purge_document',
        partnerId,
        documentId: randomUUID(),
        runAt: new Date(Date.now() + 200),
      }),
    );
    expect(await repo.claim('w', 1)).toEqual([]);
    await sleep(250);
    expect(await repo.claim('w', 1)).toHaveLength(1);
  });

  it('grows the retry delay fourfold up to 15 minutes', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(5000, n))).toEqual([5000, 20_000, 80_000, 320_000]);
    expect(retryDelayMs(5000, 9)).toBe(15 * 60 * 1000);
  });

  describe('worker', () => {
    async function runWorker(handler: KbJobHandler, until: () => Promise<boolean>, cfg = config()) {
      const repo = new KbJobsRepository(dataSource, cfg);
      const worker = new KbWorkerService(dataSource, repo, cfg, [handler]);
      await worker.onApplicationBootstrap();
      try {
        await enqueue(repo, 1);
        const deadline = Date.now() + 10_000;
        while (!(await until())) {
          if (Date.now() > deadline) throw new Error('the worker did not get there in time');
          await sleep(50);
        }
      } finally {
        await worker.beforeApplicationShutdown();
      }
    }
    const queueEmpty = async () => (await dataSource.query('SELECT 1 FROM agents.kb_jobs')).length === 0;

    it('retries a failed attempt and finishes the job', async () => {
      const attempts: number[] = [];
      const retried: string[] = [];
      const handler: KbJobHandler = {
        kind: 'purge_link',
        async run(job: ClaimedKbJob, finish: (em: EntityManager) => Promise<void>) {
          attempts.push(job.attempts);
          if (job.attempts < 3) throw new Error(`transient ${job.attempts}`);
          await dataSource.transaction(finish);
        },
        async onRetry(_job, error) {
          retried.push(error);
        },
      };
      await runWorker(handler, queueEmpty);
      expect(attempts).toEqual([1, 2, 3]);
      expect(retried).toEqual(['transient 1', 'transient 2']);
    });

    it('gives up at once on a permanent failure, and after the last attempt on others', async () => {
      const givenUp: string[] = [];
      const permanent: KbJobHandler = {
        kind: 'purge_link',
        async run() {
          throw new PermanentJobError('unsupported content');
        },
        async onGiveUp(_job, error) {
          givenUp.push(error);
        },
      };
      const failed = async () =>
        (await dataSource.query(`SELECT attempts FROM agents.kb_jobs WHERE status = 'failed'`)) as {
          attempts: number;
        }[];
      await runWorker(permanent, async () => (await failed()).length === 1);
      expect(givenUp).toEqual(['unsupported content']);
      expect((await failed())[0].attempts).toBe(1);

      await dataSource.query('DELETE FROM agents.kb_jobs');
      const flaky: KbJobHandler = {
        kind: 'purge_link',
        async run() {
          throw new Error('still down');
        },
      };
      await runWorker(flaky, async () => (await failed()).length === 1, config({ KB_JOB_MAX_ATTEMPTS: 2 }));
      expect((await failed())[0].attempts).toBe(2);
    });
  });
});
