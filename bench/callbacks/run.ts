/**
 * Carrier callback benchmark: callbacks ingested per second and the latency from a callback's POST to its
 * status being stored (the gateway answers only after the calls service has verified the signature,
 * logged the raw event, moved the call and recorded call.status.updated in one transaction).
 *
 * Starts the platform on a fresh database and subject prefix, with a sandbox carrier too slow to act on
 * its own (SANDBOX_STEP_MS=60000), starts BENCH_CALLS calls, then plays each call's carrier progress
 * as signed sandbox callbacks (ringing, in-progress, completed, and a duplicate of one in BENCH_DUPLICATE
 * of the calls), BENCH_CONCURRENCY calls at a time. Checks that every call ended completed.
 * Settings: BENCH_CALLS (default 300), BENCH_CONCURRENCY (default 32), BENCH_DUPLICATE (default 0.2),
 * BENCH_PARTNERS (default 1: the calls dealt out over this many partners), BENCH_REPLICAS (default 1: calls
 * service replicas, which share the callbacks through their NATS queue group).
 */
import { openBenchInfrastructure } from '../support/bench-infrastructure';
import { reportFigures } from '../support/figures';
import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { freePort, OFFLINE_SPEECH, startPlatform } from '@vap/testing';

const callCount = Number(process.env.BENCH_CALLS ?? 300);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 32);
const duplicateShare = Number(process.env.BENCH_DUPLICATE ?? 0.2);
/** The calls are spread over this many partners (their moves then meet at no shared row). */
const partnerCount = Math.max(1, Number(process.env.BENCH_PARTNERS ?? 1));
const replicaCount = Math.max(1, Number(process.env.BENCH_REPLICAS ?? 1));
/** Writes V8 CPU profiles of the gateway and the calls service there. */
const cpuProfileDir = process.env.BENCH_CPU_PROF;
const VOICE_ID = '72158370-d269-49a5-ae65-8f33fe3b890b';

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function json(res: Response): Promise<{ data: Record<string, unknown> }> {
  const body = (await res.json()) as { data: Record<string, unknown> };
  if (!res.ok) throw new Error(`${res.url} answered ${res.status}: ${JSON.stringify(body)}`);
  return body;
}

async function main(): Promise<void> {
  const infra = await openBenchInfrastructure('vap_bench_callbacks');
  const { db, nats, prefix } = infra;
  const secretsKey = randomBytes(32).toString('hex');
  const adminToken = randomBytes(16).toString('hex');
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const platform = await startPlatform({
    databaseUrl: db.url,
    natsUrl: nats.url,
    subjectPrefix: prefix,
    gatewayPorts: [port],
    replicas: { calls: replicaCount },
    ...(cpuProfileDir
      ? {
          nodeArgs: {
            gateway: ['--cpu-prof', `--cpu-prof-dir=${cpuProfileDir}`],
            calls: ['--cpu-prof', `--cpu-prof-dir=${cpuProfileDir}`],
          },
        }
      : {}),
    env: {
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      ...OFFLINE_SPEECH,
      ADMIN_API_TOKEN: adminToken,
      SECRETS_KEY: secretsKey,
      CALLBACK_BASE_URL: base,
      SANDBOX_STEP_MS: '60000',
      RATE_LIMIT_GENERAL_PER_MINUTE: '1000000',
      RATE_LIMIT_CALLS_PER_MINUTE: '1000000',
      RATE_LIMIT_ACCOUNT_GENERAL_PER_MINUTE: '1000000',
      RATE_LIMIT_ACCOUNT_CALLS_PER_MINUTE: '1000000',
    },
    readyTimeoutMs: 90_000,
  });
  const key = Buffer.from(
    hkdfSync('sha256', secretsKey, 'vap-sandbox-carrier', 'callback signatures v1', 32),
  );
  const post = async (callId: string, fields: Record<string, string>): Promise<number> => {
    const url = `${base}/callbacks/sandbox/${callId}/status`;
    const body = new URLSearchParams(fields).toString();
    const timestamp = String(Date.now());
    const signature = `v1=${createHmac('sha256', key).update(`${timestamp}.${url}.`).update(body).digest('hex')}`;
    const started = performance.now();
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-sandbox-timestamp': timestamp,
        'x-sandbox-signature': signature,
      },
      body,
    });
    await res.body?.cancel();
    if (res.status !== 200) throw new Error(`callback answered ${res.status}`);
    return performance.now() - started;
  };

  try {
    const admin = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' };
    // Each partner with its agent; the calls are dealt out over the partners in turn.
    const accounts: { auth: Record<string, string>; agentId: string }[] = [];
    for (let p = 0; p < partnerCount; p++) {
      const partner = await json(
        await fetch(`${base}/admin/v1/partners`, {
          method: 'POST',
          headers: admin,
          body: JSON.stringify({ name: `Bench Co ${p}`, balance_inr: 100000, concurrency_limit: 1000 }),
        }),
      );
      const auth = {
        authorization: `Bearer ${partner.data.api_key as string}`,
        'content-type': 'application/json',
      };
      const agent = await json(
        await fetch(`${base}/api/v2/agent`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({
            agent_name: 'Bench agent',
            prompt: 'You help.',
            voice_id: VOICE_ID,
            agent_type: 'outbound',
            enable_recording: false,
          }),
        }),
      );
      accounts.push({ auth, agentId: agent.data.id as string });
    }
    const callIds: string[] = [];
    for (let i = 0; i < callCount; i++) {
      const { auth, agentId } = accounts[i % partnerCount];
      const started = await json(
        await fetch(`${base}/api/v2/calls/start`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({
            agent_id: agentId,
            to_number: `+91987${String(i).padStart(7, '0')}42`,
          }),
        }),
      );
      callIds.push(started.data.call_id as string);
    }

    const latencies: number[] = [];
    let duplicates = 0;
    const playCall = async (callId: string, index: number) => {
      const steps: Record<string, string>[] = [
        { CallStatus: 'ringing', SequenceNumber: '10', EventType: 'call-progress' },
        { CallStatus: 'in-progress', SequenceNumber: '11', EventType: 'call-progress', AnsweredBy: 'human' },
        {
          CallStatus: 'completed',
          SequenceNumber: '12',
          EventType: 'call-progress',
          CallDuration: '42',
          HangupSource: 'callee',
        },
      ];
      if (index < callCount * duplicateShare) {
        steps.splice(2, 0, steps[1]);
        duplicates++;
      }
      for (const fields of steps) latencies.push(await post(callId, fields));
    };
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(concurrency, callIds.length) }, async () => {
        while (next < callIds.length) {
          const index = next++;
          await playCall(callIds[index], index);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;

    const check = new Client({ connectionString: db.url });
    await check.connect();
    const { rows } = await check.query<{ status: string; n: number }>(
      'SELECT status, count(*)::int AS n FROM calls.calls GROUP BY status',
    );
    const logged = await check.query<{ applied: number; ignored: number }>(
      'SELECT count(*) FILTER (WHERE applied)::int AS applied, count(*) FILTER (WHERE NOT applied)::int AS ignored FROM calls.carrier_events',
    );
    await check.end();
    latencies.sort((a, b) => a - b);
    console.log(
      `carrier callbacks benchmark: ${callCount} calls x 3 callbacks (+${duplicates} duplicates), ` +
        `${concurrency} calls at a time, ${partnerCount} partner(s), ${replicaCount} calls replica(s), Node ${process.version}`,
    );
    const perSecond = Math.round(latencies.length / seconds);
    const partners = partnerCount === 1 ? 'one partner' : `${partnerCount} partners`;
    const replicas = replicaCount === 1 ? '' : `, ${replicaCount} calls replicas`;
    // Named as before for one partner on one replica, so runs stay comparable.
    const benchName =
      partnerCount === 1 && replicaCount === 1 ? 'callbacks' : `callbacks (${partners}${replicas})`;
    reportFigures([
      {
        bench: benchName,
        figure: `callbacks/s, ${partners}${replicas}`,
        value: perSecond,
        unit: '/s',
        target: { op: '>=', value: partnerCount === 1 ? 1000 : 2000 },
      },
      {
        bench: benchName,
        figure: 'callback -> stored p99',
        value: Number(percentile(latencies, 99).toFixed(1)),
        unit: 'ms',
        target: { op: '<', value: 50 },
      },
    ]);
    console.table([
      {
        callbacks: latencies.length,
        seconds: Number(seconds.toFixed(2)),
        'callbacks/s': perSecond,
        'p50 ms': Number(percentile(latencies, 50).toFixed(1)),
        'p99 ms': Number(percentile(latencies, 99).toFixed(1)),
        'max ms': Number(latencies[latencies.length - 1].toFixed(1)),
      },
    ]);
    console.log(`calls by status: ${rows.map((r) => `${r.status}=${r.n}`).join(', ')}`);
    // Duplicates are absorbed before they are logged: one applied row per distinct callback.
    console.log(
      `carrier events applied: ${logged.rows[0].applied} (expected ${callCount * 3}), ignored: ${logged.rows[0].ignored}`,
    );
    const completed = rows.find((r) => r.status === 'completed')?.n ?? 0;
    if (completed !== callCount) throw new Error(`${completed} of ${callCount} calls completed`);
  } finally {
    await platform.stop().catch(() => undefined);
    await infra.close();
  }
}

main().catch((err) => {
  console.error(`bench failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
