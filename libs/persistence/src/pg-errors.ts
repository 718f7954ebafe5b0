import { DataSource, EntityManager, QueryFailedError } from 'typeorm';

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
