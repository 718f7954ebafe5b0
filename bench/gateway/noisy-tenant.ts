/**
 * Noisy-tenant benchmark: do quiet partners' call starts stay as fast while another partner floods the gateway?
 *
 * Starts its own platform (the sandbox carrier too slow to act, SANDBOX_STEP_MS=60000, so a started call costs
 * its admission and nothing after), then, in the same run:
 *  0. a 5 s warm-up of the quiet load, left out of the figures;
 *  1. BENCH_QUIET_PARTNERS partners (default 10) each start calls at a steady BENCH_QUIET_RATE per second
 *     (default 2; evenly spaced, open loop: latency counts from each request's scheduled start) for
 *     BENCH_DURATION_S seconds (default 20), alone;
 *  2. the same again while a noisy partner runs BENCH_NOISY_LOOPS closed loops (default 32) over
 *     BENCH_NOISY_KEYS keys (default 4), each loop sending in turn a valid call start, a 256 KB body and a 1.5 MB
 *     body: far past its limits (429) and past the body limit (413), from BENCH_NOISY_LEAD_S (default 10) before
 *     the quiet partners are timed: what its limits allow it goes through at the window's opening. The noisy loops run in a worker thread,
 *     so that sending them never delays the quiet partners' requests, which are timed in the main thread.
 * Prints p50/p99 of the quiet partners' starts alone and beside the noise, the ratio, and what the noisy
 * partner got (by status; never a 5xx). The per-key /calls limit is raised to 150/minute (account 300) so the
 * quiet partners stay within theirs; the noisy one is far past both within a second.
 *
 * On a machine with 2 or more cores the gateway is pinned to the last core and this process (the load) to
 * the first (taskset), so the load generator does not take the gateway's core; BENCH_PIN=0 leaves them be.
 * BENCH_LOG_DIR=<dir> keeps the apps' logs there.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { Agent, request } from 'undici';
import { OFFLINE_SPEECH, startPlatform } from '@vap/testing';
import { openBenchInfrastructure } from '../support/bench-infrastructure';
import { reportFigures } from '../support/figures';
import { ascending, figure, percentile } from '../support/percentiles';

const duration = Number(process.env.BENCH_DURATION_S ?? 20);
const quietPartners = Number(process.env.BENCH_QUIET_PARTNERS ?? 10);
const quietRate = Number(process.env.BENCH_QUIET_RATE ?? 2);
const noisyLoops = Number(process.env.BENCH_NOISY_LOOPS ?? 32);
const noisyKeys = Number(process.env.BENCH_NOISY_KEYS ?? 4);
const noisyLeadSeconds = Number(process.env.BENCH_NOISY_LEAD_S ?? 10);
/** Counted before this process pins itself to one core (which the count then follows). */
const cores = availableParallelism();
const pin = process.env.BENCH_PIN !== '0' && cores >= 2;
const VOICE_ID = '72158370-d269-49a5-ae65-8f33fe3b890b';
/** The quiet partners' p99 beside the noise may be at most this many times their p99 alone. */
const TARGET_RATIO = 1.5;

interface QuietResult {
  latencies: number[];
  failures: number;
  /** Failed starts by answer. */
  failed: Map<string, number>;
}

interface Account {
  keys: string[];
  agentId: string;
}

let nextNumber = Math.floor(Math.random() * 1_000_000);
/** A fresh callee for every start (frequency caps count per number). */
function callee(): string {
  nextNumber += 1;
  return `+91987${String(nextNumber % 10_000_000).padStart(7, '0')}42`;
}

/** The answer's data, or a thrown error naming what the gateway said. */
async function dataOf<T>(res: Response): Promise<T> {
  const body = (await res.json()) as { data?: T };
  if (!res.ok || body.data === undefined)
    throw new Error(`${res.url} answered ${res.status}: ${JSON.stringify(body)}`);
  return body.data;
}

function taskset(cpu: number, pid: number): void {
  const res = spawnSync('taskset', ['-a', '-p', '-c', String(cpu), String(pid)], { encoding: 'utf8' });
  if (res.status !== 0) console.warn(`taskset ${cpu} ${pid} failed: ${res.stderr || res.error?.message}`);
}

/** The answer's status, and for a failure its error code too (`429 RATE_LIMITED`). */
async function post(
  dispatcher: Agent,
  base: string,
  path: string,
  key: string,
  body: string,
): Promise<string> {
  const res = await request(`${base}${path}`, {
    method: 'POST',
    dispatcher,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body,
  });
  if (res.statusCode < 300) {
    await res.body.dump();
    return String(res.statusCode);
  }
  const answer = (await res.body.json().catch(() => ({}))) as { error?: { code?: string } };
  return `${res.statusCode} ${answer.error?.code ?? ''}`.trim();
}

/** The quiet partners' starts, each partner at `quietRate`/s, evenly spaced; latencies from the scheduled start. */
async function quietLoad(base: string, accounts: Account[], seconds = duration): Promise<QuietResult> {
  const dispatcher = new Agent({ connections: 64 });
  const latencies: number[] = [];
  const failed = new Map<string, number>();
  const fail = (what: string): void => {
    failed.set(what, (failed.get(what) ?? 0) + 1);
  };
  const interval = 1000 / quietRate;
  const perPartner = Math.round(seconds * quietRate);
  const started = performance.now();
  await Promise.all(
    accounts.map(async (account, p) => {
      // Partners are offset within an interval so their requests do not all leave at once.
      const offset = (interval * p) / accounts.length;
      const pending: Promise<void>[] = [];
      for (let i = 0; i < perPartner; i++) {
        const due = started + offset + i * interval;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        pending.push(
          post(
            dispatcher,
            base,
            '/api/v2/calls/start',
            account.keys[0],
            JSON.stringify({ agent_id: account.agentId, to_number: callee() }),
          ).then(
            (status) => {
              if (status === '200') latencies.push(performance.now() - due);
              else fail(status);
            },
            (err: NodeJS.ErrnoException) => fail(`client error (${err.code ?? 'unknown'})`),
          ),
        );
      }
      await Promise.all(pending);
    }),
  );
  await dispatcher.close();
  return {
    latencies: ascending(latencies),
    failures: [...failed.values()].reduce((a, b) => a + b, 0),
    failed,
  };
}

interface NoisyJob {
  base: string;
  account: Account;
}

/**
 * The noisy partner's loops, in a worker thread of their own until told to stop, so that sending its bodies
 * never delays the quiet partners' requests in this thread: statuses counted, client-side errors apart. The
 * large bodies are built once (their callee repeats; they are refused anyway).
 */
async function runNoisyLoops(job: NoisyJob, stopped: () => boolean): Promise<Map<string, number>> {
  const { base, account } = job;
  const dispatcher = new Agent({ connections: noisyLoops });
  const counts = new Map<string, number>();
  const count = (what: string) => counts.set(what, (counts.get(what) ?? 0) + 1);
  const pad = (bytes: number) =>
    JSON.stringify({
      agent_id: account.agentId,
      to_number: callee(),
      variables: { notes: 'x'.repeat(bytes) },
    });
  const medium = pad(256 * 1024);
  const large = pad(1536 * 1024);
  const bodies = [
    () => JSON.stringify({ agent_id: account.agentId, to_number: callee() }),
    () => medium,
    () => large,
  ];
  await Promise.all(
    Array.from({ length: noisyLoops }, async (_, loop) => {
      const key = account.keys[loop % account.keys.length];
      for (let i = loop; !stopped(); i++) {
        try {
          count(await post(dispatcher, base, '/api/v2/calls/start', key, bodies[i % bodies.length]()));
        } catch (err) {
          count(`client error (${(err as NodeJS.ErrnoException).code ?? 'unknown'})`);
        }
      }
    }),
  );
  await dispatcher.close();
  return counts;
}

/** Starts the noisy partner's worker; the returned stop() ends it and resolves with what it got. */
function startNoise(job: NoisyJob): () => Promise<Map<string, number>> {
  const worker = new Worker(__filename, { workerData: job });
  const done = new Promise<Map<string, number>>((resolve, reject) => {
    worker.once('message', (counts: [string, number][]) => resolve(new Map(counts)));
    worker.once('error', reject);
  });
  return () => {
    worker.postMessage('stop');
    return done;
  };
}

function noisyWorker(): void {
  let stop = false;
  parentPort!.once('message', () => (stop = true));
  void runNoisyLoops(workerData as NoisyJob, () => stop).then((counts) =>
    parentPort!.postMessage([...counts]),
  );
}

async function main(): Promise<void> {
  const infra = await openBenchInfrastructure('vap_bench_noisy');
  const adminToken = randomBytes(16).toString('hex');
  const platform = await startPlatform({
    databaseUrl: infra.db.url,
    natsUrl: infra.nats.url,
    subjectPrefix: infra.prefix,
    // BENCH_LOG_DIR keeps each app's output there, to see what a failure was.
    logDir: process.env.BENCH_LOG_DIR,
    env: {
      ADMIN_API_TOKEN: adminToken,
      SECRETS_KEY: randomBytes(32).toString('hex'),
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      ...OFFLINE_SPEECH,
      SANDBOX_STEP_MS: '60000',
      // Every started call stays live through the run.
      SANDBOX_MAX_LIVE_CALLS: '10000',
      RATE_LIMIT_CALLS_PER_MINUTE: '150',
      RATE_LIMIT_ACCOUNT_CALLS_PER_MINUTE: '300',
    },
  });
  try {
    const base = platform.gatewayUrl;
    if (pin) {
      for (const gateway of platform.gateways) taskset(cores - 1, gateway.pid);
      taskset(0, process.pid);
    }
    const admin = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' };
    const account = async (name: string, keys: number): Promise<Account> => {
      const created = await dataOf<{ partner: { id: string }; api_key: string }>(
        await fetch(`${base}/admin/v1/partners`, {
          method: 'POST',
          headers: admin,
          body: JSON.stringify({ name, balance_inr: 100000, concurrency_limit: 1000 }),
        }),
      );
      const all = [created.api_key];
      for (let k = 1; k < keys; k++) {
        const issued = await dataOf<{ api_key: string }>(
          await fetch(`${base}/admin/v1/partners/${created.partner.id}/api-keys`, {
            method: 'POST',
            headers: admin,
            body: JSON.stringify({ name: `key ${k}` }),
          }),
        );
        all.push(issued.api_key);
      }
      const agent = await dataOf<{ id: string }>(
        await fetch(`${base}/api/v2/agent`, {
          method: 'POST',
          headers: { authorization: `Bearer ${all[0]}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            agent_name: 'Bench agent',
            prompt: 'You help.',
            voice_id: VOICE_ID,
            agent_type: 'outbound',
            enable_recording: false,
          }),
        }),
      );
      return { keys: all, agentId: agent.id };
    };
    const quiet: Account[] = [];
    for (let p = 0; p < quietPartners; p++) quiet.push(await account(`Quiet Co ${p}`, 1));
    const noisy = await account('Noisy Co', noisyKeys);

    console.log(
      `noisy-tenant benchmark: ${quietPartners} quiet partners at ${quietRate} starts/s each, ${duration} s per phase; ` +
        `noisy: ${noisyLoops} loops over ${noisyKeys} keys; gateway ${pin ? `pinned to core ${cores - 1}, load to core 0` : 'not pinned'}; Node ${process.version}`,
    );
    // Warm-up, left out of the figures: connections, JIT and the services' pools settle first.
    await quietLoad(base, quiet, 5);
    const alone = await quietLoad(base, quiet);
    const stopNoise = startNoise({ base, account: noisy });
    // The flood first spends what its limits allow (a burst of starts at the window's opening, legitimate load
    // the services work off) and is past them by the time the quiet partners are timed; the lead-in and the
    // phase together stay inside one 60 s window, so no new allowance opens while they are timed.
    await new Promise((r) => setTimeout(r, noisyLeadSeconds * 1000));
    const beside = await quietLoad(base, quiet);
    const noisyCounts = await stopNoise();

    const row = (label: string, r: QuietResult) => ({
      label,
      starts: r.latencies.length,
      failures: r.failures ? JSON.stringify(Object.fromEntries(r.failed)) : 0,
      'p50 ms': figure(percentile(r.latencies, 50)),
      'p99 ms': figure(percentile(r.latencies, 99)),
    });
    console.table([row('quiet partners alone', alone), row('quiet partners beside the noisy one', beside)]);
    console.table(
      [...noisyCounts]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([answer, n]) => ({ 'noisy partner got': answer, n })),
    );
    const ratio = percentile(beside.latencies, 99) / percentile(alone.latencies, 99);
    const p50Ratio = percentile(beside.latencies, 50) / percentile(alone.latencies, 50);
    console.log(
      `p99 beside / alone: ${ratio.toFixed(2)} (target <= ${TARGET_RATIO}); p50: ${p50Ratio.toFixed(2)}`,
    );
    const serverErrors = [...noisyCounts].filter(([status]) => /^5\d\d/.test(status));
    if (serverErrors.length)
      console.error(`the noisy partner got 5xx answers: ${JSON.stringify(serverErrors)}`);
    const bench = 'gateway noisy tenant';
    reportFigures([
      { bench, figure: 'quiet call starts p99 alone', value: percentile(alone.latencies, 99), unit: 'ms' },
      {
        bench,
        figure: 'quiet call starts p99 beside the noise',
        value: percentile(beside.latencies, 99),
        unit: 'ms',
      },
      {
        bench,
        figure: 'quiet p99 beside / alone',
        value: Number(ratio.toFixed(2)),
        unit: 'ratio',
        target: { op: '<=', value: TARGET_RATIO },
      },
    ]);
    if (serverErrors.length || alone.failures || beside.failures) process.exitCode = 1;
  } finally {
    await platform.stop();
    await infra.close();
  }
}

if (isMainThread) {
  main().catch((err) => {
    console.error(`bench failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
} else {
  noisyWorker();
}
