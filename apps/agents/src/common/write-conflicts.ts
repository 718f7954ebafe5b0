import { AppError, ErrorCode } from '@vap/messages';
import { WriteConflicts } from '@vap/persistence';

/**
 * What every write of agents and extraction sets answers when a row another request is changing could
 * not be locked (NOWAIT): 409 WRITE_CONFLICT, so the caller retries instead of overwriting it.
 */
export const LOCK_CONFLICT: WriteConflicts = {
  lock: () =>
    new AppError(
      ErrorCode.WRITE_CONFLICT,
      'Another change to the same agent or extraction set is in flight; retry',
    ),
};

/** LOCK_CONFLICT, and what the violation of each named unique constraint means to the partner. */
export function withUniqueConflicts(unique: Record<string, () => AppError>): WriteConflicts {
  return { ...LOCK_CONFLICT, unique };
}
