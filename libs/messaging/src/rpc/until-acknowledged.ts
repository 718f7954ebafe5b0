import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '@vap/messages';

export interface RetryOptions {
  /** Delay before the second attempt, doubled after each further failure up to `maxDelayMs`. */
  retryDelayMs?: number;
  maxDelayMs?: number;
  /** No attempt starts after this instant (ms since the epoch); the first one always does. */
  deadline: number;
  onRetry?: (attempt: number, error: Error) => void;
}

/**
 * Sends a command until the receiver acknowledges, with backoff: a refusal (an AppError below 500: the request is
 * wrong or names something unknown) is final; no responder, a timeout or a failure on the far side (a replica that
 * died holding the request, a restart) is tried again until the deadline.
 */
export async function untilAcknowledged<T>(send: () => Promise<T>, options: RetryOptions): Promise<T> {
  const deadline = options.deadline;
  const maxDelay = options.maxDelayMs ?? 5000;
  let delay = options.retryDelayMs ?? 250;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await send();
    } catch (err) {
      const refused = err instanceof AppError && err.status < 500;
      if (refused || Date.now() + delay > deadline) throw err;
      options.onRetry?.(attempt, err as Error);
      await sleep(delay);
      delay = Math.min(delay * 2, maxDelay);
    }
  }
}
