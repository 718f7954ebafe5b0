// The Postgres error helpers against real Postgres: the codes and constraint names they read are the ones
// the driver reports, and inTransaction rolls back before it answers a conflict.
import { DataSource } from 'typeorm';
import { createTestDatabase, freePort, TestDatabase } from '@vap/testing';
import {
  databaseUnavailable,
  inTransaction,
  isDatabaseUnavailable,
  isLockConflict,
  isUniqueViolation,
  PgErrorCode,
  pgErrorCode,
  violatedUniqueConstraint,
} from './pg-errors';

const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

describe('pg-errors (Postgres)', () => {
  let db: TestDatabase;
  let ds: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase(SERVER_URL, 'vap_pg_errors');
    ds = await new DataSource({ type: 'postgres', url: db.url }).initialize();
    await ds.query(`CREATE TABLE items (id int PRIMARY KEY, name text CONSTRAINT items_name_key UNIQUE)`);
  });

  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  beforeEach(() => ds.query('TRUNCATE items'));

  const failure = (work: () => Promise<unknown>) =>
    work().then(
      () => {
        throw new Error('expected the statement to fail');
      },
      (err: unknown) => err,
    );

  it('names the unique constraint a statement violated', async () => {
    await ds.query(`INSERT INTO items VALUES (1, 'a')`);
    const err = await failure(() => ds.query(`INSERT INTO items VALUES (2, 'a')`));
    expect(pgErrorCode(err)).toBe(PgErrorCode.uniqueViolation);
    expect(violatedUniqueConstraint(err)).toBe('items_name_key');
    expect(isUniqueViolation(err)).toBe(true);
    expect(isUniqueViolation(err, 'items_name_key')).toBe(true);
    expect(isUniqueViolation(err, 'items_pkey')).toBe(false);
    expect(isLockConflict(err)).toBe(false);
  });

  it('tells other failures and other errors apart', async () => {
    const err = await failure(() => ds.query(`INSERT INTO items VALUES (NULL, 'a')`));
    expect(pgErrorCode(err)).toBe('23502');
    expect(violatedUniqueConstraint(err)).toBeNull();
    expect(isUniqueViolation(err)).toBe(false);
    expect(isUniqueViolation(new Error('boom'))).toBe(false);
    expect(pgErrorCode(undefined)).toBeUndefined();
  });

  it('sees a NOWAIT lock that is not available as a lock conflict', async () => {
    await ds.query(`INSERT INTO items VALUES (1, 'a')`);
    const holder = ds.createQueryRunner();
    await holder.connect();
    await holder.startTransaction();
    try {
      await holder.query(`SELECT * FROM items WHERE id = 1 FOR UPDATE`);
      const err = await failure(() =>
        ds.transaction((em) => em.query(`SELECT * FROM items WHERE id = 1 FOR UPDATE NOWAIT`)),
      );
      expect(pgErrorCode(err)).toBe(PgErrorCode.lockNotAvailable);
      expect(isLockConflict(err)).toBe(true);
    } finally {
      await holder.rollbackTransaction();
      await holder.release();
    }
  });

  describe('isDatabaseUnavailable', () => {
    it('sees a server that refuses connections as unavailable', async () => {
      const down = new DataSource({
        type: 'postgres',
        url: `postgres://postgres@127.0.0.1:${await freePort()}/x`,
      });
      const err = await failure(() => down.initialize());
      expect(isDatabaseUnavailable(err)).toBe(true);
    });

    it('sees a connection the server ended under the statement as unavailable', async () => {
      const victim = new DataSource({ type: 'postgres', url: db.url, poolSize: 1 });
      await victim.initialize();
      try {
        const [{ pid }] = (await victim.query(`SELECT pg_backend_pid() AS pid`)) as { pid: number }[];
        const err = await failure(() =>
          Promise.all([
            victim.query(`SELECT pg_sleep(5)`),
            ds.query(`SELECT pg_terminate_backend($1)`, [pid]),
          ]),
        );
        expect(pgErrorCode(err)).toBe('57P01');
        expect(isDatabaseUnavailable(err)).toBe(true);
      } finally {
        await victim.destroy().catch(() => undefined);
      }
    });

    it('leaves a failed statement and other errors to their own answers', async () => {
      await ds.query(`INSERT INTO items VALUES (1, 'a')`);
      expect(isDatabaseUnavailable(await failure(() => ds.query(`INSERT INTO items VALUES (1, 'b')`)))).toBe(
        false,
      );
      expect(isDatabaseUnavailable(await failure(() => ds.query(`SELECT nope FROM items`)))).toBe(false);
      expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
      expect(isDatabaseUnavailable(undefined)).toBe(false);
    });

    it("answers 502 INTERNAL_ERROR without the driver's words", () => {
      expect(databaseUnavailable().toPayload()).toMatchObject({ code: 'INTERNAL_ERROR', status: 502 });
    });
  });

  describe('inTransaction', () => {
    const taken = new Error('name taken');
    const busy = new Error('busy');
    const conflicts = { unique: { items_name_key: () => taken }, lock: () => busy };

    it('commits and returns what the work returns', async () => {
      const result = await inTransaction(
        ds,
        async (em) => {
          await em.query(`INSERT INTO items VALUES (1, 'a')`);
          return 'done';
        },
        conflicts,
      );
      expect(result).toBe('done');
      expect(await ds.query(`SELECT id FROM items`)).toEqual([{ id: 1 }]);
    });

    it('answers a named unique violation with its error, after rolling back', async () => {
      await ds.query(`INSERT INTO items VALUES (1, 'a')`);
      const err = await failure(() =>
        inTransaction(
          ds,
          async (em) => {
            await em.query(`INSERT INTO items VALUES (2, 'b')`);
            await em.query(`INSERT INTO items VALUES (3, 'a')`);
          },
          conflicts,
        ),
      );
      expect(err).toBe(taken);
      expect(await ds.query(`SELECT id FROM items ORDER BY id`)).toEqual([{ id: 1 }]);
    });

    it('rethrows a violation of a constraint it was not told about', async () => {
      await ds.query(`INSERT INTO items VALUES (1, 'a')`);
      const err = await failure(() =>
        inTransaction(ds, (em) => em.query(`INSERT INTO items VALUES (1, 'z')`), conflicts),
      );
      expect(violatedUniqueConstraint(err)).toBe('items_pkey');
    });

    it('answers a lock conflict with its error only when given one', async () => {
      await ds.query(`INSERT INTO items VALUES (1, 'a')`);
      const holder = ds.createQueryRunner();
      await holder.connect();
      await holder.startTransaction();
      try {
        await holder.query(`SELECT * FROM items WHERE id = 1 FOR UPDATE`);
        const locking = (em: { query(sql: string): Promise<unknown> }) =>
          em.query(`SELECT * FROM items WHERE id = 1 FOR UPDATE NOWAIT`);
        expect(await failure(() => inTransaction(ds, locking, conflicts))).toBe(busy);
        const bare = await failure(() => inTransaction(ds, locking, {}));
        expect(isLockConflict(bare)).toBe(true);
      } finally {
        await holder.rollbackTransaction();
        await holder.release();
      }
    });
  });
});
