export interface WaitForOptions {
  /** Give up after this long (default 10 s). */
  timeoutMs?: number;
  /** Pause between attempts (default 100 ms). */
  intervalMs?: number;
  /** What was awaited, for the timeout message. */
  description?: string;
  /** Stops waiting early when aborted. */
  signal?: AbortSignal;
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls `condition` until it returns a truthy value, and returns that value. A throwing or rejecting
 * attempt counts as "not yet"; the last such error is quoted when the wait times out.
 */
export async function waitFor<T>(
  condition: () => T | Promise<T>,
  { timeoutMs = 10_000, intervalMs = 100, description = 'condition', signal }: WaitForOptions = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    signal?.throwIfAborted();
    try {
      const value = await condition();
      if (value) return value as NonNullable<T>;
    } catch (err) {
      lastError = err;
    }
    const left = deadline - Date.now();
    if (left <= 0) {
      const cause = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${description}${cause}`);
    }
    await sleep(Math.min(intervalMs, left));
  }
}
