import { AppError, ErrorCode } from '@vap/contracts';
import { DataSource, EntityManager } from 'typeorm';
import { isLockConflict, violatedUniqueConstraint } from './db-errors';

/** What a unique constraint's violation means to the partner, by constraint name. */
export type UniqueConflicts = Record<string, () => AppError>;

/**
 * Runs work in one transaction. A row another request is changing (NOWAIT lock) answers 409
 * WRITE_CONFLICT so the caller retries instead of overwriting it; a named unique violation answers the
 * error given for it.
 */
export async function inTransaction<T>(
  dataSource: DataSource,
  work: (em: EntityManager) => Promise<T>,
  conflicts: UniqueConflicts = {},
): Promise<T> {
  try {
    return await dataSource.transaction(work);
  } catch (err) {
    if (isLockConflict(err)) {
      throw new AppError(
        ErrorCode.WRITE_CONFLICT,
        'Another change to the same agent or extraction set is in flight; retry',
      );
    }
    const constraint = violatedUniqueConstraint(err);
    if (constraint && conflicts[constraint]) throw conflicts[constraint]();
    throw err;
  }
}
