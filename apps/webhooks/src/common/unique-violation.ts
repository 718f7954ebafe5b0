import { QueryFailedError } from 'typeorm';

/** The name of the unique index a failed insert or update hit, or null for any other error. */
export function uniqueViolation(err: unknown): string | null {
  if (!(err instanceof QueryFailedError)) return null;
  const driverError = err.driverError as { code?: string; constraint?: string };
  return driverError.code === '23505' ? (driverError.constraint ?? '') : null;
}
