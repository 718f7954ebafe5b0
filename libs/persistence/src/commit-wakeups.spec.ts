// wakeAfterCommit against real Postgres through TypeORM's transactions: a wake-up is heard once the
// transaction commits, never when it rolls back, and a savepoint defers to the transaction around it.
import { DataSource } from 'typeorm';
import { createTestDatabase, TestDatabase } from '@vap/testing';
import { afterTransaction, onCommitWakeup, wakeAfterCommit } from './commit-wakeups';
import { schemaDataSourceOptions } from './data-source-options';

const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

describe('wakeAfterCommit', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  const heard: string[] = [];
  let stop: () => void;

  beforeAll(async () => {
    db = await createTestDatabase(SERVER_URL, 'vap_commit_wakeups');
    dataSource = new DataSource(
      schemaDataSourceOptions({ url: db.url, schema: 'public', entities: [], migrations: [], poolSize: 2 }),
    );
    await dataSource.initialize();
    await dataSource.query('CREATE TABLE items (n integer)');
    stop = onCommitWakeup('items_queued', (payload) => heard.push(payload));
  });

  afterAll(async () => {
    stop?.();
    await dataSource?.destroy();
    await db?.drop();
  });

  beforeEach(() => (heard.length = 0));

  it('wakes once the transaction has committed, when the row is visible to others', async () => {
    const visibleAtWake: number[] = [];
    const stopProbe = onCommitWakeup('items_queued', () => {
      void dataSource.query('SELECT count(*)::int AS n FROM items').then(([r]) => visibleAtWake.push(r.n));
    });
    await dataSource.transaction(async (em) => {
      await em.query('INSERT INTO items VALUES (1)');
      wakeAfterCommit(em, 'items_queued', 'a');
      wakeAfterCommit(em, 'items_queued', 'a');
      wakeAfterCommit(em, 'items_queued', 'b');
      expect(heard).toEqual([]);
    });
    stopProbe();
    // One wake-up per payload, however often it was asked for.
    expect(heard).toEqual(['a', 'b']);
    await new Promise((r) => setTimeout(r, 50));
    expect(visibleAtWake.every((n) => n >= 1)).toBe(true);
  });

  it('never wakes for a transaction that rolled back', async () => {
    await expect(
      dataSource.transaction(async (em) => {
        await em.query('INSERT INTO items VALUES (2)');
        wakeAfterCommit(em, 'items_queued', 'lost');
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(heard).toEqual([]);
    // The next transaction on a reused connection starts clean.
    await dataSource.transaction(async (em) => wakeAfterCommit(em, 'items_queued', 'next'));
    expect(heard).toEqual(['next']);
  });

  it('keeps a savepoint’s wake-up for the commit of the transaction around it', async () => {
    await dataSource.transaction(async (em) => {
      await em.transaction(async (inner) => wakeAfterCommit(inner, 'items_queued', 'inner'));
      expect(heard).toEqual([]);
    });
    expect(heard).toEqual(['inner']);
  });

  it('wakes at once outside a transaction, and only listeners of that channel', async () => {
    wakeAfterCommit(dataSource.manager, 'items_queued', 'now');
    wakeAfterCommit(dataSource.manager, 'other_channel', 'elsewhere');
    expect(heard).toEqual(['now']);
  });

  describe('afterTransaction', () => {
    const outcomeLog = (log: string[], name: string) => ({
      committed: () => log.push(`${name} committed`),
      rolledBack: () => log.push(`${name} rolled back`),
    });

    it('runs committed() after the commit, rolledBack() after a rollback, and at once outside a transaction', async () => {
      const log: string[] = [];
      await dataSource.transaction(async (em) => {
        afterTransaction(em, outcomeLog(log, 'kept'));
        // A savepoint's end is not the transaction's.
        await em.transaction(async (inner) => afterTransaction(inner, outcomeLog(log, 'nested')));
        expect(log).toEqual([]);
      });
      await expect(
        dataSource.transaction(async (em) => {
          afterTransaction(em, outcomeLog(log, 'lost'));
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      afterTransaction(dataSource.manager, outcomeLog(log, 'outside'));
      expect(log).toEqual(['kept committed', 'nested committed', 'lost rolled back', 'outside committed']);
    });
  });
});
