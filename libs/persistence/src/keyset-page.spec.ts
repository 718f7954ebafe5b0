// Keyset pages against real Postgres: every row exactly once and in order, both directions, for entity
// queries and raw SQL, with ties on one timestamp and rows microseconds apart.
import { Column, DataSource, Entity, PrimaryColumn } from 'typeorm';
import { decodeCursor, encodeCursor } from '@vap/messages';
import { createTestDatabase, TestDatabase } from '@vap/testing';
import { KeysetColumns, keysetPage, KeysetOrder, KeysetPager } from './keyset-page';

const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

@Entity({ name: 'items' })
class Item {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ type: 'bigint' })
  seq: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}

/** Six rows: three share one instant, two are a microsecond apart within one millisecond. */
const ROWS: [string, string][] = [
  ['00000000-0000-4000-8000-000000000003', '2026-03-01 10:00:00.000001+00'],
  ['00000000-0000-4000-8000-000000000001', '2026-03-01 10:00:00.000001+00'],
  ['00000000-0000-4000-8000-000000000002', '2026-03-01 10:00:00.000001+00'],
  ['00000000-0000-4000-8000-000000000005', '2026-03-01 10:00:00.123457+00'],
  ['00000000-0000-4000-8000-000000000004', '2026-03-01 10:00:00.123456+00'],
  ['00000000-0000-4000-8000-000000000006', '2026-03-01 10:00:01+00'],
];
const ASCENDING = ['1', '2', '3', '4', '5', '6'].map((n) => `00000000-0000-4000-8000-00000000000${n}`);

describe('keyset pages (Postgres)', () => {
  let db: TestDatabase;
  let ds: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase(SERVER_URL, 'vap_keyset');
    ds = await new DataSource({ type: 'postgres', url: db.url, entities: [Item] }).initialize();
    await ds.query(
      `CREATE TABLE items (id uuid PRIMARY KEY, seq bigserial, created_at timestamptz NOT NULL)`,
    );
    // Inserted out of order, so that seq differs from the (created_at, id) order.
    for (const [id, at] of ROWS)
      await ds.query(`INSERT INTO items (id, created_at) VALUES ($1, $2)`, [id, at]);
  });

  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  /** Follows next_cursor from the first page to the last; the ids in the order seen. */
  async function walk(
    pageOf: (cursor: string | undefined) => Promise<{ ids: string[]; nextCursor: string | null }>,
  ): Promise<string[]> {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 20; pages++) {
      const page = await pageOf(cursor);
      seen.push(...page.ids);
      if (!page.nextCursor) return seen;
      cursor = page.nextCursor;
    }
    throw new Error('next_cursor never ended');
  }

  const viaEntities = (limit: number, order: KeysetOrder) => (cursor: string | undefined) =>
    keysetPage(ds.getRepository(Item).createQueryBuilder('i'), { limit, cursor }, order).then((p) => ({
      ids: p.rows.map((r) => r.id),
      nextCursor: p.nextCursor,
    }));

  const viaSql = (limit: number, order: KeysetOrder) => async (cursor: string | undefined) => {
    const pager = new KeysetPager({ limit, cursor }, order);
    const params: unknown[] = [pager.fetch];
    const after = pager.condition((value) => {
      params.push(value);
      return `$${params.length}`;
    });
    const rows = (await ds.query(
      `SELECT id, ${pager.select} FROM items ${after ? `WHERE ${after}` : ''} ORDER BY ${pager.orderBy} LIMIT $1`,
      params,
    )) as ({ id: string } & KeysetColumns)[];
    const page = pager.page(rows);
    return { ids: page.rows.map((r) => r.id), nextCursor: page.nextCursor };
  };

  for (const [how, source] of [
    ['entity query', viaEntities],
    ['raw SQL', viaSql],
  ] as const) {
    describe(how, () => {
      it.each([1, 2, 4, 6, 10])('pages oldest first, %i a page, every row once', async (limit) => {
        expect(await walk(source(limit, { idKind: 'uuid' }))).toEqual(ASCENDING);
      });

      it.each([1, 2, 4, 6, 10])('pages newest first, %i a page, every row once', async (limit) => {
        expect(await walk(source(limit, { idKind: 'uuid', direction: 'DESC' }))).toEqual(
          [...ASCENDING].reverse(),
        );
      });

      it('pages by the id alone when told to (a sequence), in both directions', async () => {
        const bySeq: KeysetOrder = { idKind: 'integer', id: 'seq', byIdOnly: true };
        const insertOrder = ROWS.map(([id]) => id);
        expect(await walk(source(4, bySeq))).toEqual(insertOrder);
        expect(await walk(source(4, { ...bySeq, direction: 'DESC' }))).toEqual([...insertOrder].reverse());
      });
    });
  }

  it('ends a page early when told its size (a page bounded in bytes), and the next page goes on from there', async () => {
    // Pages of at most 4 rows, each cut to its first 3 (or fewer when the page has fewer): every row once.
    const cut = (size: number) => async (cursor: string | undefined) => {
      const pager = new KeysetPager({ limit: 4, cursor }, { idKind: 'uuid' });
      const params: unknown[] = [pager.fetch];
      const after = pager.condition((value) => {
        params.push(value);
        return `$${params.length}`;
      });
      const rows = (await ds.query(
        `SELECT id, ${pager.select} FROM items ${after ? `WHERE ${after}` : ''} ORDER BY ${pager.orderBy} LIMIT $1`,
        params,
      )) as ({ id: string } & KeysetColumns)[];
      const page = pager.page(rows, rows, size);
      expect(page.rows.length).toBeLessThanOrEqual(size);
      return { ids: page.rows.map((r) => r.id), nextCursor: page.nextCursor };
    };
    expect(await walk(cut(3))).toEqual(ASCENDING);
    expect(await walk(cut(1))).toEqual(ASCENDING);
    // A size past the limit is the limit.
    expect(await walk(cut(50))).toEqual(ASCENDING);
  });

  it('carries the timestamp to the microsecond and the id in the cursor', async () => {
    const first = await keysetPage(
      ds.getRepository(Item).createQueryBuilder('i'),
      { limit: 4 },
      { idKind: 'uuid' },
    );
    expect(first.rows.map((r) => r.id)).toEqual(ASCENDING.slice(0, 4));
    expect(decodeCursor(first.nextCursor!, 'uuid')).toEqual({
      t: '2026-03-01T10:00:00.123456Z',
      id: ASCENDING[3],
    });
  });

  it('still takes a cursor whose timestamp has milliseconds only', async () => {
    const cursor = encodeCursor({ t: '2026-03-01T10:00:00.123Z', id: ASCENDING[5] });
    const page = await viaSql(10, { idKind: 'uuid' })(cursor);
    expect(page.ids).toEqual([ASCENDING[3], ASCENDING[4], ASCENDING[5]]);
  });

  it('pages a filtered entity query and refuses a foreign cursor', async () => {
    const qb = () =>
      ds
        .getRepository(Item)
        .createQueryBuilder('i')
        .where('i.created_at < :t', { t: '2026-03-01T10:00:01Z' });
    const first = await keysetPage(qb(), { limit: 3 }, { idKind: 'uuid', direction: 'DESC' });
    expect(first.rows.map((r) => r.id)).toEqual([ASCENDING[4], ASCENDING[3], ASCENDING[2]]);
    const second = await keysetPage(
      qb(),
      { limit: 3, cursor: first.nextCursor! },
      { idKind: 'uuid', direction: 'DESC' },
    );
    expect(second.rows.map((r) => r.id)).toEqual([ASCENDING[1], ASCENDING[0]]);
    expect(second.nextCursor).toBeNull();
    await expect(keysetPage(qb(), { cursor: first.nextCursor! }, { idKind: 'integer' })).rejects.toThrow();
  });
});
