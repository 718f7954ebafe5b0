import { AppError } from '../errors';
import { UUID_SOURCE } from '../ids';

export interface Cursor {
  /** Timestamp of the last item of the previous page, to the microsecond (see KeysetPager in @vap/persistence). */
  t: string;
  /** Its id, to break ties between equal timestamps. */
  id: string;
}

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

/** What a list pages by: a row's UUID, a prefixed one (`cus_<uuid>`), or (campaign contacts) a sequence number. */
const CURSOR_IDS = {
  uuid: new RegExp(`^${UUID_SOURCE}$`, 'i'),
  prefixed: new RegExp(`^[a-z]{2,4}_${UUID_SOURCE}$`, 'i'),
  integer: /^\d{1,18}$/,
};
export type CursorIdKind = keyof typeof CURSOR_IDS;

const ISO_UTC = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?Z$/;

/** Only the form encodeCursor's callers write, and only real instants: Postgres refuses Feb 30 and the like. */
function isCursorTimestamp(t: string): boolean {
  const m = ISO_UTC.exec(t);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1).map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    year >= 1 &&
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    hour < 24 &&
    minute < 60 &&
    second < 60
  );
}

/**
 * Decodes a cursor from a partner; a tampered or foreign one is a VALIDATION_ERROR, never a 500. Both parts
 * are checked here, once for every list, because they go into SQL as a timestamp and an id.
 */
export function decodeCursor(raw: string | undefined, idKind: CursorIdKind): Cursor | null {
  if (!raw) return null;
  try {
    const parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Partial<Cursor>;
    if (
      typeof parsed.t === 'string' &&
      typeof parsed.id === 'string' &&
      isCursorTimestamp(parsed.t) &&
      CURSOR_IDS[idKind].test(parsed.id)
    ) {
      return { t: parsed.t, id: parsed.id };
    }
  } catch {
    // fall through
  }
  throw AppError.validation([{ field: 'cursor', message: 'cursor is not a valid next_cursor value' }]);
}

export const DEFAULT_PAGE_SIZE = 20;
