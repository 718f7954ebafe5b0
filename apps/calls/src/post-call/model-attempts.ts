const RETRY_DELAY_MS = 250;

/** How a post-call model task went: its answer after `attempts` tries, or the last failure once they were spent. */
export type Attempted<T> =
  { ok: true; value: T; attempts: number } | { ok: false; error: string; attempts: number };

/**
 * Runs a post-call model task (extraction, analysis) up to `max` times, waiting a little longer after each failure;
 * every try is counted, as the session reports it.
 */
export async function withModelAttempts<T>(max: number, task: () => Promise<T>): Promise<Attempted<T>> {
  let error = 'no attempt made';
  for (let attempts = 1; attempts <= max; attempts++) {
    try {
      return { ok: true, value: await task(), attempts };
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
      if (attempts < max) await new Promise((r) => setTimeout(r, RETRY_DELAY_MS * attempts));
    }
  }
  return { ok: false, error, attempts: max };
}
