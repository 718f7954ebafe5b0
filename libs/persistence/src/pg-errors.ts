import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import { AppError } from '@vap/messages';

/** The Postgres error codes the services act on (SQLSTATE), named once. */
export const PgErrorCode = {
  uniqueViolation: '23505',
  /** A NOWAIT lock that was not available. */
  lockNotAvailable: '55P03',
  /** A deadlock Postgres broke by aborting this transaction. */
  deadlockDetected: '40P01',
  duplicateDatabase: '42P04',
} as const;

interface PgError {
  code?: string;
  constraint?: string;
}

/** The driver's error behind a failed statement: TypeORM wraps it, a plain pg client throws it as is. */
function pgError(err: unknown): PgError | null {
  if (err instanceof QueryFailedError) return err.driverError as PgError;
  return typeof err === 'object' && err !== null && 'code' in err ? (err as PgError) : null;
}

/**
 * SQLSTATEs of a server that is going away or not taking connections: class 08 (connection exception) is
 * matched by prefix; 57P01-57P03 admin/crash shutdown and cannot-connect-now, 53300 too many connections.
 */
const UNAVAILABLE_SQLSTATES = ['57P01', '57P02', '57P03', '53300'];
/** Socket errors of a connection to the server that could not be made or was cut. */
const UNAVAILABLE_ERRNOS = [
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
];
/** What node-postgres says when the connection ended under a query, or could not be had in time. */
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /is not queryable/,
  /^Client was closed/,
];

/**
 * True when a statement failed because Postgres could not be reached or dropped the connection (a restart,
 * a failover, a network cut), not because of the statement: the request may succeed when retried.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  const cause = err instanceof QueryFailedError ? err.driverError : err;
  if (typeof cause !== 'object' || cause === null) return false;
  const { code, message } = cause as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (code.startsWith('08') || UNAVAILABLE_SQLSTATES.includes(code) || UNAVAILABLE_ERRNOS.includes(code))
      return true;
  }
  // AggregateError (both loopback addresses refused) carries the socket errors in `errors`.
  const inner = (cause as { errors?: unknown }).errors;
  if (Array.isArray(inner) && inner.length && inner.every((e) => isDatabaseUnavailable(e))) return true;
  return typeof message === 'string' && UNAVAILABLE_MESSAGES.some((m) => m.test(message));
}

/**
 * The answer to a request that failed for want of the database: 502 INTERNAL_ERROR as for any failed
 * dependency (the contract's error table), never a 500, never the driver's words.
 */
export function databaseUnavailable(): AppError {
  return AppError.downstream('A service the platform depends on is unavailable; retry');
}

/** The SQLSTATE of a failed statement, or undefined for any other error. */
export function pgErrorCode(err: unknown): string | undefined {
  return pgError(err)?.code;
}

/** The unique constraint or index a statement violated, or null when that is not why it failed. */
export function violatedUniqueConstraint(err: unknown): string | null {
  const e = pgError(err);
  return e?.code === PgErrorCode.uniqueViolation ? (e.constraint ?? '') : null;
}

/** True when the statement broke a unique constraint: any, or the one named. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const violated = violatedUniqueConstraint(err);
  return violated !== null && (constraint === undefined || violated === constraint);
}

/** True when another transaction holds the rows: a NOWAIT lock was not available, or a deadlock was broken. */
export function isLockConflict(err: unknown): boolean {
  const code = pgErrorCode(err);
  return code === PgErrorCode.lockNotAvailable || code === PgErrorCode.deadlockDetected;
}

/** What a failed write means to the caller, so that a conflict answers an error of its own and never a 500. */
export interface WriteConflicts {
  /** By unique constraint name: the error its violation answers. Other violations are rethrown. */
  unique?: Record<string, () => Error>;
  /** The error a lock conflict (see isLockConflict) answers; without it the error is rethrown. */
  lock?: () => Error;
}

/**
 * Runs work in one transaction and turns the conflicts it names into their errors. The errors are
 * thrown after the rollback, so nothing of the work is kept.
 */
export async function inTransaction<T>(
  dataSource: DataSource,
  work: (em: EntityManager) => Promise<T>,
  conflicts: WriteConflicts,
): Promise<T> {
  try {
    return await dataSource.transaction(work);
  } catch (err) {
    if (conflicts.lock && isLockConflict(err)) throw conflicts.lock();
    const constraint = violatedUniqueConstraint(err);
    const unique = conflicts.unique ?? {};
    const answer = constraint !== null && Object.hasOwn(unique, constraint) ? unique[constraint] : undefined;
    if (answer) throw answer();
    throw err;
  }
}
