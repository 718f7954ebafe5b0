import { QueryFailedError } from 'typeorm';

interface PgError {
  code?: string;
  constraint?: string;
}

function pg(err: unknown): PgError | null {
  return err instanceof QueryFailedError ? (err.driverError as PgError) : null;
}

/** The unique constraint or index a statement violated, if that is why it failed. */
export function violatedUniqueConstraint(err: unknown): string | null {
  const e = pg(err);
  return e?.code === '23505' ? (e.constraint ?? null) : null;
}

/**
 * True when the statement failed because another transaction holds the rows: a NOWAIT lock that was
 * not available, or a deadlock Postgres broke by aborting us.
 */
export function isLockConflict(err: unknown): boolean {
  const code = pg(err)?.code;
  return code === '55P03' || code === '40P01';
}
