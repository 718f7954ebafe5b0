/**
 * Gateway benchmark: requests/s and p50/p99 latency of an authenticated GET /customers/{id}
 * (gateway -> NATS -> Postgres and back) beside GET /health/live (no I/O) on the same run, so the cost
 * of auth, rate limiting and the NATS hop shows as the difference.
 *
 * Starts its own platform on a fresh database with rate limits lifted (a benchmark at 60 req/min would
 * measure the limiter). Then the authenticated route once more at a steady BENCH_FIXED_RATE (500 req/s, evenly
 * spaced: see pacedLoad), for its latency below saturation. Settings: BENCH_DURATION_S (default 10), BENCH_CONNECTIONS (default 32),
 * BENCH_REPLICAS (gateway replicas per round, e.g. "1 2"; the load is spread over them), BENCH_CPU_PROF=<dir>
 * writes a V8 CPU profile of each gateway there.
 */
import { openBenchInfrastructure } from '../support/bench-infrastructure';
import { OFFLINE_SPEECH, startPlatform } from '@vap/testing';
import { randomBytes } from 'node:crypto';
import { reportFigures } from '../support/figures';
import { pacedLoad } from '../support/paced-load';

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
const replicaCounts = (process.env.BENCH_REPLICAS ?? '1')
  .split(/[\s,]+/)
  .filter(Boolean)
  .map(Number);
const cpuProfileDir = process.env.BENCH_CPU_PROF;

interface Measured {
  label: string;
  'req/s': number;
  'p50 ms': number;
  'p99 ms': number;
  'max ms': number;
  requests: number;
  'non-2xx': number;
  errors: number;
}

/**
 * One route on every replica at once, as a load balancer spreads it: the connections split evenly, the rates summed and the latency percentiles those of the slowest replica.
 */
async function measure(
  label: string,
  bases: string[],
  path: string,
  headers: Record<string, string> = {},
): Promise<Measured> {
  const per = Math.max(1, Math.floor(connections / bases.length));
  const run = (seconds: number) =>
    Promise.all(
      bases.map((base) =>
        autocannon({
          url: `${base}${path}`,
          headers,
          connections: per,
          duration: seconds,
        }),
      ),
    );
  // A short warm-up so JIT and connection pools are settled before the measured run.
  await run(2);
  const results = await run(duration);
  const sum = (pick: (r: AutocannonResult) => number) => results.reduce((n, r) => n + pick(r), 0);
  const worst = (pick: (r: AutocannonResult) => number) => Math.max(...results.map(pick));
  return {
    label,
    'req/s': Math.round(sum((r) => r.requests.average)),
    'p50 ms': worst((r) => r.latency.p50),
    'p99 ms': worst((r) => r.latency.p99),
    'max ms': worst((r) => r.latency.max),
    requests: sum((r) => r.requests.total),
    'non-2xx': sum((r) => r.non2xx),
    errors: sum((r) => r.errors + r.timeouts),
  };
}

async function benchReplicas(replicas: number): Promise<void> {
  const infra = await openBenchInfrastructure('vap_bench');
  const { db, nats, prefix } = infra;
  const adminToken = randomBytes(16).toString('hex');
  const platform = await startPlatform({
    databaseUrl: db.url,
    natsUrl: nats.url,
    subjectPrefix: prefix,
    gatewayReplicas: replicas,
    ...(cpuProfileDir ? { nodeArgs: { gateway: ['--cpu-prof', `--cpu-prof-dir=${cpuProfileDir}`] } } : {}),
    env: {
      ADMIN_API_TOKEN: adminToken,
      SECRETS_KEY: randomBytes(32).toString('hex'),
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      ...OFFLINE_SPEECH,
      RATE_LIMIT_GENERAL_PER_MINUTE: '1000000000',
      RATE_LIMIT_CALLS_PER_MINUTE: '1000000000',
      RATE_LIMIT_ACCOUNT_GENERAL_PER_MINUTE: '1000000000',
      RATE_LIMIT_ACCOUNT_CALLS_PER_MINUTE: '1000000000',
    },
  });
  try {
    const base = platform.gatewayUrl;
    const bases = platform.gateways.map((g) => g.url);
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
      `gateway benchmark: ${replicas} replica(s), ${connections} connections, ${duration} s per route, Node ${process.version}`,
    );
    const auth = { authorization: `Bearer ${apiKey}` };
    const customerPath = `/api/v2/customers/${id}`;
    const health = await measure('GET /health/live', bases, '/health/live');
    const customers = await measure('GET /api/v2/customers/{id}', bases, customerPath, auth);
    // Warmed up by the saturated run just before.
    const steady = await pacedLoad(bases, customerPath, auth, fixedRate, duration);
    const paced: Measured = {
      label: `GET /api/v2/customers/{id} at a steady ${fixedRate} req/s`,
      'req/s': fixedRate,
      'p50 ms': Number(steady.p50Ms.toFixed(1)),
      'p99 ms': Number(steady.p99Ms.toFixed(1)),
      'max ms': Number(steady.maxMs.toFixed(1)),
      requests: steady.requests,
      'non-2xx': steady.failures,
      errors: 0,
    };
    console.table([health, customers, paced]);
    const bench = `gateway (${replicas} replica(s))`;
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

async function main(): Promise<void> {
  if (replicaCounts.length === 0 || replicaCounts.some((n) => !Number.isInteger(n) || n <= 0)) {
    throw new Error('BENCH_REPLICAS: replica counts, e.g. "1 2"');
  }
  for (const replicas of replicaCounts) await benchReplicas(replicas);
}

main().catch((err) => {
  console.error(`bench failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
