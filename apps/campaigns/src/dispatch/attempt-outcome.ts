import { CallStatus } from '@vap/messages';

/** The retry settings an outcome is judged by. */
export interface RetryPolicy {
  retry_count: number;
  retry_delays_minutes: number[];
  cooldown_minutes: number;
}

export type AttemptOutcome =
  { kind: 'final'; status: 'completed' | 'failed' | 'skipped' } | { kind: 'retry'; waitMinutes: number };

const RETRYABLE: readonly CallStatus[] = ['failed', 'busy', 'no_answer'];

/** Minutes before retry number `retry` (1-based): retry_delays_minutes[retry-1], the last value repeating. */
export function retryDelayMinutes(policy: RetryPolicy, retry: number): number {
  const delays = policy.retry_delays_minutes;
  if (delays.length === 0) return 0;
  return delays[Math.min(retry, delays.length) - 1];
}

/**
 * What a terminal call means for its contact. completed: done. failed, busy, no_answer: retried while
 * retries are left, after the retry's delay and never sooner than cooldown_minutes after this attempt
 * ended. canceled: given up (skipped).
 */
export function attemptOutcome(status: CallStatus, attempt: number, policy: RetryPolicy): AttemptOutcome {
  if (status === 'completed') return { kind: 'final', status: 'completed' };
  if (!RETRYABLE.includes(status)) return { kind: 'final', status: 'skipped' };
  if (attempt > policy.retry_count) return { kind: 'final', status: 'failed' };
  return {
    kind: 'retry',
    waitMinutes: Math.max(retryDelayMinutes(policy, attempt), policy.cooldown_minutes),
  };
}
