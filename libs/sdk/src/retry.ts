import { IDEMPOTENCY_KEY_HEADER, takesIdempotencyKey } from './idempotency';

export interface RetryOptions {
  /** Attempts in all, the first included (1 = no retry). */
  maxAttempts: number;
  /** First backoff step; each further retry doubles it, up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the answer is returned (as a VapApiError). */
  maxRetryAfterMs: number;
  /** Statuses worth another attempt. */
  statuses: readonly number[];
  /** Source of jitter, [0, 1). */
  random: () => number;
  /** Told before each wait (for logs and tests). */
  onRetry?: (info: RetryInfo) => void;
}

export interface RetryInfo {
  attempt: number;
  delayMs: number;
  method: string;
  url: string;
  status?: number;
  error?: unknown;
}

export const DEFAULT_RETRY: RetryOptions = {
  maxAttempts: 3,
  baseDelayMs: 250,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
  statuses: [429, 502],
  random: Math.random,
};

const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/**
 * Whether sending the request again cannot do the work twice: an idempotent method, or an operation that
 * honours Idempotency-Key and carries one (call starts). Any other POST or PATCH is sent once.
 */
export function isRetryable(request: Request): boolean {
  if (IDEMPOTENT_METHODS.has(request.method.toUpperCase())) return true;
  return request.headers.has(IDEMPOTENCY_KEY_HEADER) && takesIdempotencyKey(request.method, request.url);
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Exponential backoff with jitter: half the step fixed, half random, so clients that failed together spread. */
export function backoffDelay(
  retry: number,
  options: Pick<RetryOptions, 'baseDelayMs' | 'maxDelayMs' | 'random'>,
) {
  const step = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (retry - 1));
  return Math.round(step / 2 + options.random() * (step / 2));
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * A fetch that sends a retryable request again after a 429 or 502 (or a network failure): up to
 * maxAttempts in all, waiting Retry-After when the answer gives one (plus jitter), else an exponential
 * backoff with jitter. Each attempt sends a clone, so the body and headers (the Idempotency-Key) are the same.
 */
export function retryingFetch(
  fetchImpl: (request: Request) => Promise<Response>,
  options: RetryOptions,
): (request: Request) => Promise<Response> {
  return async (request: Request) => {
    if (options.maxAttempts <= 1 || !isRetryable(request)) return fetchImpl(request);
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= options.maxAttempts;
      let response: Response;
      try {
        response = await fetchImpl(last ? request : request.clone());
      } catch (error) {
        if (last || request.signal.aborted) throw error;
        const delayMs = backoffDelay(attempt, options);
        options.onRetry?.({ attempt, delayMs, method: request.method, url: request.url, error });
        await sleep(delayMs, request.signal);
        continue;
      }
      if (last || !options.statuses.includes(response.status)) return response;
      const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
      if (retryAfter !== undefined && retryAfter > options.maxRetryAfterMs) return response;
      const delayMs =
        retryAfter !== undefined
          ? retryAfter + Math.round(options.random() * options.baseDelayMs)
          : backoffDelay(attempt, options);
      // The answer is dropped: free its connection before waiting.
      await response.body?.cancel().catch(() => undefined);
      options.onRetry?.({
        attempt,
        delayMs,
        method: request.method,
        url: request.url,
        status: response.status,
      });
      await sleep(delayMs, request.signal);
    }
  };
}
