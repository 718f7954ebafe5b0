import { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { CursorIdKind, decodeCursor, encodeCursor } from '@vap/contracts';

/**
 * One page of a list ordered by (created_at, id), after the partner's cursor. The cursor carries the
 * row's created_at to the microsecond, as Postgres stores it: a JavaScript Date keeps milliseconds only,
 * and a truncated cursor would show rows of the previous page again.
 */
export async function cursorPage<T extends ObjectLiteral & { id: string }>(
  qb: SelectQueryBuilder<T>,
  limit: number,
  rawCursor: string | undefined,
  idKind: CursorIdKind,
): Promise<{ rows: T[]; nextCursor: string | null }> {
  const alias = qb.alias;
  const cursor = decodeCursor(rawCursor, idKind);
  if (cursor)
    qb.andWhere(`(${alias}.created_at, ${alias}.id) > (:cursorT, :cursorId)`, {
      cursorT: cursor.t,
      cursorId: cursor.id,
    });
  qb.addSelect(`to_char(${alias}.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`, 'cursor_t')
    .orderBy(`${alias}.created_at`, 'ASC')
    .addOrderBy(`${alias}.id`, 'ASC')
    .limit(limit + 1);
  const { entities, raw } = await qb.getRawAndEntities<{ cursor_t: string }>();
  const rows = entities.slice(0, limit);
  const last = rows.length ? raw[rows.length - 1] : undefined;
  return {
    rows,
    nextCursor:
      entities.length > limit && last
        ? encodeCursor({ t: last.cursor_t, id: rows[rows.length - 1].id })
        : null,
  };
}
