/**
 * Gateway benchmark: requests/s and p50/p99 latency of an authenticated GET /customers/{id}
 * (gateway -> NATS -> Postgres and back) beside GET /health/live (no I/O) on the same run, so the cost
 * of auth, rate limiting and the NATS hop shows as the difference.
 *
 * Starts its own platform on a fresh database with rate limits lifted (a benchmark at 60 req/min would
 * measure the limiter). Then the authenticated route once more at a fixed BENCH_FIXED_RATE (500 req/s), for its
 * latency below saturation. Settings: BENCH_DURATION_S (default 10), BENCH_CONNECTIONS (default 32).
 */
import { openBenchInfrastructure } from '../support/bench-infrastructure';
import { startPlatform } from '@vap/testing';
import { randomBytes } from 'node:crypto';
import { reportFigures } from '../support/figures';

// autocannon ships no types of its own; this is the part of its result we read.
interface Histogram {
  average: number;
  p50: number;
  p99: number;
  max: number;
}
interface AutocannonResult {
  requests: Histogram & { total: number };
  latency: Histogram;
  non2xx: number;
  errors: number;
  timeouts: number;
}
type Autocannon = (opts: Record<string, unknown>) => Promise<AutocannonResult>;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require('autocannon') as Autocannon;

const duration = Number(process.env.BENCH_DURATION_S ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const fixedRate = Number(process.env.BENCH_FIXED_RATE ?? 500);

async function measure(label: string, url: string, headers: Record<string, string> = {}, rate?: number) {
  // A short warm-up so JIT and connection pools are settled before the measured run.
  await autocannon({ url, headers, connections, duration: 2 });
  const r = await autocannon({ url, headers, connections, duration, ...(rate ? { overallRate: rate } : {}) });
  return {
    label,
    'req/s': Math.round(r.requests.average),
    'p50 ms': r.latency.p50,
    'p99 ms': r.latency.p99,
    'max ms': r.latency.max,
    requests: r.requests.total,
    'non-2xx': r.non2xx,
    errors: r.errors + r.timeouts,
  };
}

async function main(): Promise<void> {
  const infra = await openBenchInfrastructure('vap_bench');
  const { db, nats, prefix } = infra;
  const adminToken = randomBytes(16).toString('hex');
  const platform = await startPlatform({
    databaseUrl: db.url,
    natsUrl: nats.url,
    subjectPrefix: prefix,
    env: {
      ADMIN_API_TOKEN: adminToken,
      SECRETS_KEY: randomBytes(32).toString('hex'),
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_GENERAL_PER_MINUTE: '1000000000',
      RATE_LIMIT_CALLS_PER_MINUTE: '1000000000',
    },
  });
  try {
    const base = platform.gatewayUrl;
    const partner = (await (
      await fetch(`${base}/admin/v1/partners`, {
        method: 'POST',
        headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Bench Co' }),
      })
    ).json()) as { data: { api_key: string } };
    const apiKey: string = partner.data.api_key;
    const customer = (await (
      await fetch(`${base}/api/v2/customers`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ external_id: 'bench-1', name: 'Bench Customer', email: 'bench@example.com' }),
      })
    ).json()) as { data: { id: string } };
    const id: string = customer.data.id;

    console.log(
      `gateway benchmark: ${connections} connections, ${duration} s per route, Node ${process.version}`,
    );
    const auth = { authorization: `Bearer ${apiKey}` };
    const customerUrl = `${base}/api/v2/customers/${id}`;
    const [health, customers, paced] = [
      await measure('GET /health/live', `${base}/health/live`),
      await measure('GET /api/v2/customers/{id}', customerUrl, auth),
      await measure(`GET /api/v2/customers/{id} at ${fixedRate} req/s`, customerUrl, auth, fixedRate),
    ];
    console.table([health, customers, paced]);
    const bench = 'gateway';
    reportFigures([
      { bench, figure: 'GET /health/live', value: health['req/s'], unit: 'req/s' },
      { bench, figure: 'GET /customers/{id}', value: customers['req/s'], unit: 'req/s' },
      {
        bench,
        figure: 'GET /customers/{id} vs /health/live',
        value: Number((customers['req/s'] / health['req/s']).toFixed(3)),
        unit: 'ratio',
        target: { op: '>=', value: 0.5 },
      },
      {
        bench,
        figure: `GET /customers/{id} p99 at ${fixedRate} req/s`,
        value: paced['p99 ms'],
        unit: 'ms',
        target: { op: '<', value: 20 },
      },
    ]);
  } finally {
    await platform.stop();
    await infra.close();
  }
}

main().catch((err) => {
  console.error(`bench failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
