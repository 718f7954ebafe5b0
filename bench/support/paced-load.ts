import { Pool } from 'undici';
import { ascending, percentile } from './percentiles';

export interface PacedLoadResult {
  requests: number;
  /** Answers other than 2xx, and requests that failed outright. */
  failures: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/**
 * GETs `path` at a steady `rate` per second for `seconds`, spread over `bases` in turn: one request every
 * 1/rate s, each on its own schedule whether or not earlier ones have answered (open loop, as independent
 * clients behave). Latency counts from the scheduled start, so a stalled server shows in it instead of
 * slowing the load down. (autocannon's fixed rate sends each second's quota in a burst at the start of the
 * second, which measures a saturated server half of every second.)
 */
export async function pacedLoad(
  bases: string[],
  path: string,
  headers: Record<string, string>,
  rate: number,
  seconds: number,
): Promise<PacedLoadResult> {
  const pools = bases.map((base) => new Pool(base, { connections: 64, pipelining: 1 }));
  const latencies: number[] = [];
  let failures = 0;
  const total = Math.round(rate * seconds);
  const interval = 1000 / rate;
  const started = performance.now();
  const inFlight: Promise<void>[] = [];
  try {
    for (let i = 0; i < total; i++) {
      const due = started + i * interval;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
      const pool = pools[i % pools.length];
      inFlight.push(
        pool
          .request({ path, method: 'GET', headers })
          .then(async (res) => {
            await res.body.dump();
            if (res.statusCode < 200 || res.statusCode >= 300) failures++;
            latencies.push(performance.now() - due);
          })
          .catch(() => {
            failures++;
          }),
      );
    }
    await Promise.all(inFlight);
  } finally {
    await Promise.all(pools.map((p) => p.close()));
  }
  const sorted = ascending(latencies);
  return {
    requests: total,
    failures,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    maxMs: sorted[sorted.length - 1] ?? Number.NaN,
  };
}
