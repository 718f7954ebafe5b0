/** How an attempt failed, as far as the next delay cares. */
export interface AttemptFailure {
  statusCode: number | null;
  timedOut: boolean;
  /** The receiver's Retry-After, in milliseconds, when it sent one we could read. */
  retryAfterMs: number | null;
}

export interface RetryPolicyOptions {
  /** Delay before retry n (index n-1) after the first attempt failed. */
  schedule: number[];
  /** Relative jitter, 0.2 = ±20%. */
  jitter: number;
  /** Upper bound on an honoured Retry-After. */
  retryAfterMaxMs: number;
  random?: () => number;
}

/**
 * The delay before the next attempt after `failedInRound` consecutive failures, or null when the schedule
 * is used up. A receiver that is overloaded (429) or slow (timeout) gets twice the scheduled delay; a
 * Retry-After it sends is honoured when longer than that, up to the bound.
 */
export function nextRetryDelay(
  failedInRound: number,
  failure: AttemptFailure,
  options: RetryPolicyOptions,
): number | null {
  const scheduled = options.schedule[failedInRound - 1];
  if (scheduled === undefined) return null;
  const slowDown = failure.statusCode === 429 || failure.timedOut ? 2 : 1;
  const spread = options.jitter * (2 * (options.random ?? Math.random)() - 1);
  let delay = scheduled * slowDown * (1 + spread);
  if (failure.retryAfterMs !== null)
    delay = Math.max(delay, Math.min(failure.retryAfterMs, options.retryAfterMaxMs));
  return Math.max(0, Math.round(delay));
}

/** Retry-After as seconds or an HTTP date → milliseconds from `now`; null when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | null {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return null;
  if (/^\s*\d+\s*$/.test(raw)) return Number(raw) * 1000;
  const at = Date.parse(raw);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
