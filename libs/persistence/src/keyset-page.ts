import { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { Cursor, CursorIdKind, decodeCursor, DEFAULT_PAGE_SIZE, encodeCursor } from '@vap/messages';

/** What a list route was asked for: a page size and the previous page's next_cursor. */
export interface PageQuery {
  limit?: number;
  cursor?: string;
}

export interface KeysetOrder {
  /** What the list's ids look like; a cursor with another kind of id is refused. */
  idKind: CursorIdKind;
  /** Oldest first (the default) or newest first. */
  direction?: 'ASC' | 'DESC';
  /** Timestamptz column the list is sorted by (SQL, qualified when the query joins): created_at unless said. */
  time?: string;
  /** Unique column that breaks ties between equal timestamps: id unless said. */
  id?: string;
  /**
   * The id alone orders the list (a sequence number): the cursor still carries the timestamp, so that its
   * form is the same for every list, but only the id places the page.
   */
  byIdOnly?: boolean;
}

/** The cursor columns a paged query selects beside its own (see KeysetPager.select). */
export interface KeysetColumns {
  cursor_t: string;
  cursor_id: string;
}

export interface KeysetPageResult<T> {
  rows: T[];
  nextCursor: string | null;
}

/**
 * Keyset pagination by (timestamp, id), in either direction, for entity queries and raw SQL alike. The
 * cursor carries the row's timestamp as Postgres prints it, to the microsecond, and the query compares
 * with that full value: a JavaScript Date keeps milliseconds only, and a truncated cursor would show rows
 * of the previous page again (or skip them, newest first).
 *
 * Raw SQL: add `select` to the columns, `condition(bind)` to the WHERE clause when it is not null,
 * `orderBy` and `LIMIT fetch`, then `page(rows)`.
 */
export class KeysetPager {
  readonly limit: number;
  /** How many rows to fetch: one more than the page, to know whether another page follows. */
  readonly fetch: number;
  readonly cursor: Cursor | null;
  /** The sort column and the tie-breaking id, as SQL. */
  readonly time: string;
  readonly id: string;
  readonly direction: 'ASC' | 'DESC';

  constructor(
    query: PageQuery,
    private readonly order: KeysetOrder,
  ) {
    this.limit = query.limit ?? DEFAULT_PAGE_SIZE;
    this.fetch = this.limit + 1;
    this.cursor = decodeCursor(query.cursor, order.idKind);
    this.time = order.time ?? 'created_at';
    this.id = order.id ?? 'id';
    this.direction = order.direction ?? 'ASC';
  }

  /** The cursor's two columns, to add to the SELECT list. */
  get select(): string {
    return `${this.cursorT} AS cursor_t, ${this.cursorId} AS cursor_id`;
  }

  /** The timestamp as text in UTC with all six fractional digits, the form cursors carry. */
  get cursorT(): string {
    return `to_char(${this.time} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
  }

  get cursorId(): string {
    return `(${this.id})::text`;
  }

  get orderBy(): string {
    return this.order.byIdOnly
      ? `${this.id} ${this.direction}`
      : `${this.time} ${this.direction}, ${this.id} ${this.direction}`;
  }

  /**
   * The WHERE condition for the rows after the cursor, or null on the first page. `bind` binds a value and
   * answers its placeholder (`$3`, or `:name` in a query builder).
   */
  condition(bind: (value: string) => string): string | null {
    if (!this.cursor) return null;
    const op = this.direction === 'ASC' ? '>' : '<';
    if (this.order.byIdOnly) return `${this.id} ${op} ${bind(this.cursor.id)}`;
    const t = bind(this.cursor.t);
    return `(${this.time}, ${this.id}) ${op} (CAST(${t} AS timestamptz), ${bind(this.cursor.id)})`;
  }

  /**
   * The page out of the fetched rows, and the cursor of the page after it (null on the last page). `keys`
   * are the rows' cursor columns, when they are not on the rows themselves (an entity query's raw results).
   * `size` ends the page before `limit` rows (a page bounded in bytes too); the rows after it come next.
   */
  page<T>(
    rows: T[],
    keys: readonly KeysetColumns[] = rows as unknown as KeysetColumns[],
    size = this.limit,
  ): KeysetPageResult<T> {
    const count = Math.min(size, this.limit);
    const page = rows.slice(0, count);
    const last = page.length ? keys[page.length - 1] : undefined;
    return {
      rows: page,
      nextCursor: rows.length > count && last ? encodeCursor({ t: last.cursor_t, id: last.cursor_id }) : null,
    };
  }
}

/** One page of an entity query, ordered and placed after the cursor as KeysetPager says. */
export async function keysetPage<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  query: PageQuery,
  order: KeysetOrder,
): Promise<KeysetPageResult<T>> {
  const alias = qb.alias;
  const pager = new KeysetPager(query, {
    ...order,
    time: `${alias}.${order.time ?? 'created_at'}`,
    id: `${alias}.${order.id ?? 'id'}`,
  });
  const params: Record<string, string> = {};
  const condition = pager.condition((value) => {
    const name = `keyset${Object.keys(params).length}`;
    params[name] = value;
    return `:${name}`;
  });
  if (condition) qb.andWhere(condition, params);
  qb.addSelect(pager.cursorT, 'cursor_t').addSelect(pager.cursorId, 'cursor_id');
  if (order.byIdOnly) qb.orderBy(pager.id, pager.direction);
  else qb.orderBy(pager.time, pager.direction).addOrderBy(pager.id, pager.direction);
  qb.limit(pager.fetch);
  const { entities, raw } = await qb.getRawAndEntities<KeysetColumns>();
  return pager.page(entities, raw);
}
