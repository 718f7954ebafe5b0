import type { Response } from 'express';
import { AppError, ErrorCode } from '@vap/messages';
import { RateLimitResult, WINDOW_SECONDS } from './rate-limit.service';

/**
 * Sets X-RateLimit-* for a counted request; over the limit also Retry-After, and answers the 429
 * RATE_LIMITED to throw (null while within the limit).
 */
export function applyRateLimit(
  res: Response,
  limit: number,
  { count, resetAt }: RateLimitResult,
  message: string,
): AppError | null {
  const resetSeconds = Math.max(1, Math.ceil((resetAt.getTime() - Date.now()) / 1000));
  res.setHeader('X-RateLimit-Limit', String(limit));
  res.setHeader('X-RateLimit-Remaining', String(Math.max(0, limit - count)));
  res.setHeader('X-RateLimit-Reset', String(Math.ceil(resetAt.getTime() / 1000)));
  if (count <= limit) return null;
  res.setHeader('Retry-After', String(Math.min(resetSeconds, WINDOW_SECONDS)));
  return new AppError(ErrorCode.RATE_LIMITED, message);
}
