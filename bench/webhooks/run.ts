/**
 * Webhook delivery benchmark: signed deliveries per second (events x endpoints) and p50/p99 latency from the
 * moment an event is on the stream to its receipt at a local HTTPS receiver, through the whole path: durable
 * JetStream consumer, fan-out into the Postgres queue, SKIP LOCKED claims, HMAC signing, HTTPS POST, and the
 * attempt's history row.
 *
 * Starts its own webhooks service(s) on a fresh database and subject prefix, creates endpoints over NATS
 * and publishes call.status.updated events as the calls service's outbox relay would. The receiver runs
 * in this process with a throwaway self-signed certificate that the service trusts (NODE_EXTRA_CA_CERTS).
 * Settings: BENCH_EVENTS (default 2000), BENCH_ENDPOINTS (default 5), BENCH_REPLICAS (default 1), and
 * BENCH_RATE (events per second; default 0 = all at once, which measures throughput: latency then includes
 * the backlog; a rate below capacity measures latency) and BENCH_WARMUP (events sent first, at the same pace,
 * and left out of the figures: they open the HTTPS connections and warm the JIT; default 200).
 */
import { openBenchInfrastructure } from '../support/bench-infrastructure';
import { selfSignedCertificate } from '../support/self-signed-certificate';
import { reportFigures } from '../support/figures';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:https';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, JSONCodec } from 'nats';
import { Client } from 'pg';
import { freePort, ServiceHandle, startService } from '@vap/testing';

const events = Number(process.env.BENCH_EVENTS ?? 2000);
const endpointCount = Number(process.env.BENCH_ENDPOINTS ?? 5);
const replicaCount = Number(process.env.BENCH_REPLICAS ?? 1);
/** Writes a V8 CPU profile of each webhooks replica there. */
const cpuProfileDir = process.env.BENCH_CPU_PROF;
const rate = Number(process.env.BENCH_RATE ?? 0);
const warmup = Number(process.env.BENCH_WARMUP ?? 200);
const codec = JSONCodec();

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function main(): Promise<void> {
  const tlsDir = mkdtempSync(join(tmpdir(), 'vap-bench-tls-'));
  const tls = selfSignedCertificate(tlsDir);
  const infra = await openBenchInfrastructure('vap_bench_webhooks');
  const { db, nats, prefix } = infra;
  const partnerId = randomUUID();

  // Receipt time of each delivery, keyed by X-Webhook-Id; publish time of each event by call_id.
  const publishedAt = new Map<string, number>();
  const latencies: number[] = [];
  const seen = new Set<string>();
  // Wall-clock times (ms) for the stage breakdown against the database's timestamps.
  const publishedWall = new Map<string, number>();
  const receivedWall = new Map<string, number>();
  let duplicates = 0;
  let lastReceipt = 0;
  const server = createServer({ cert: readFileSync(tls.cert), key: readFileSync(tls.key) }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const now = performance.now();
      const id = String(req.headers['x-webhook-id']);
      receivedWall.set(id, Date.now());
      if (seen.has(id)) duplicates++;
      seen.add(id);
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { call_id: string } };
      const sent = publishedAt.get(body.data.call_id);
      if (sent !== undefined) latencies.push(now - sent);
      lastReceipt = now;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;

  // Replicas share one key: any of them opens the secrets any other sealed.
  const secretsKey = randomBytes(32).toString('hex');
  const replicas: ServiceHandle[] = [];
  const nc = await connect({ servers: nats.url, name: 'bench-webhooks' });
  try {
    for (let n = 0; n < replicaCount; n++) {
      replicas.push(
        await startService('webhooks', {
          port: await freePort(),
          label: `webhooks-${n}`,
          ...(cpuProfileDir ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${cpuProfileDir}`] } : {}),
          env: {
            NODE_ENV: 'production',
            LOG_LEVEL: 'warn',
            DATABASE_URL: db.url,
            NATS_URL: nats.url,
            NATS_SUBJECT_PREFIX: prefix,
            SECRETS_KEY: secretsKey,
            WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
            NODE_EXTRA_CA_CERTS: tls.cert,
          },
        }),
      );
    }
    const request = async (subject: string, data: unknown) => {
      const msg = await nc.request(
        `${prefix}.${subject}`,
        codec.encode({ partnerId, requestId: randomUUID(), data }),
        {
          timeout: 10_000,
        },
      );
      const reply = codec.decode(msg.data) as { ok: boolean; error?: unknown };
      if (!reply.ok) throw new Error(`${subject}: ${JSON.stringify(reply.error)}`);
    };
    for (let n = 0; n < endpointCount; n++) {
      await request('webhooks.endpoint.create', { label: `bench-${n}`, url: `${receiverUrl}/hook-${n}` });
    }

    const js = nc.jetstream();
    /** Publishes `count` events as a relay would, all at once or paced at `rate`; resolves when all are on the stream. */
    const publishEvents = async (count: number) => {
      const begin = performance.now();
      const publishes: Promise<unknown>[] = [];
      for (let n = 0; n < count; n++) {
        const callId = randomUUID();
        const event = {
          id: randomUUID(),
          subject: 'events.call.status_updated',
          partnerId,
          occurredAt: new Date().toISOString(),
          data: { call_id: callId, agent_id: null, status: 'ringing', occurred_at: new Date().toISOString() },
        };
        publishedAt.set(callId, performance.now());
        publishedWall.set(callId, Date.now());
        publishes.push(
          js.publish(`${prefix}.events.call.status_updated`, codec.encode(event), { msgID: event.id }),
        );
        if (publishes.length >= 200) await Promise.all(publishes.splice(0));
        if (rate > 0) {
          // Paced: event n leaves at n / rate seconds after the start.
          const due = begin + ((n + 1) * 1000) / rate;
          const wait = due - performance.now();
          if (wait > 0) {
            await Promise.all(publishes.splice(0));
            await new Promise((r) => setTimeout(r, wait));
          }
        }
      }
      await Promise.all(publishes);
    };
    const warmupDeliveries = warmup * endpointCount;
    if (warmup > 0) {
      await publishEvents(warmup);
      const until = Date.now() + 120_000;
      while (seen.size < warmupDeliveries && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      if (seen.size < warmupDeliveries)
        throw new Error(`warm-up: ${seen.size} of ${warmupDeliveries} received`);
      for (const collected of [publishedAt, publishedWall, receivedWall, seen]) collected.clear();
      latencies.length = 0;
      duplicates = 0;
    }
    const started = performance.now();
    await publishEvents(events);
    const expected = events * endpointCount;
    // When the fan-out had queued every delivery, to tell the consumer's pace from the senders'.
    const counter = new Client({ connectionString: db.url });
    await counter.connect();
    let queuedAt = 0;
    const deadline = Date.now() + 300_000;
    while (seen.size < expected && Date.now() < deadline) {
      if (!queuedAt) {
        const { rows } = await counter.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM webhooks.deliveries',
        );
        if (rows[0].n >= expected + warmupDeliveries) queuedAt = performance.now();
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const stages = await stageBreakdown(counter, publishedWall, receivedWall);
    await counter.end();
    const seconds = (lastReceipt - started) / 1000;
    latencies.sort((a, b) => a - b);
    console.log(
      `webhooks benchmark: ${events} events x ${endpointCount} endpoints, ${replicaCount} replica(s), ` +
        `${rate > 0 ? `${rate} events/s` : 'all at once'}, Node ${process.version}`,
    );
    const bench = `webhooks (${rate > 0 ? `${rate} events/s` : 'burst'} x ${endpointCount} endpoints, ${replicaCount} replica(s))`;
    const p99 = Math.round(percentile(latencies, 99));
    reportFigures(
      rate > 0
        ? [{ bench, figure: 'commit -> receipt p99', value: p99, unit: 'ms', target: { op: '<', value: 50 } }]
        : [
            {
              bench,
              figure: 'deliveries/s',
              value: Math.round(seen.size / seconds),
              unit: '/s',
              target: { op: '>=', value: 3000 },
            },
          ],
    );
    console.table([
      {
        deliveries: seen.size,
        expected,
        duplicates,
        seconds: Number(seconds.toFixed(2)),
        'all queued after s': queuedAt ? Number(((queuedAt - started) / 1000).toFixed(2)) : null,
        'deliveries/s': Math.round(seen.size / seconds),
        'p50 ms': Math.round(percentile(latencies, 50)),
        'p99 ms': Math.round(percentile(latencies, 99)),
        'max ms': Math.round(latencies[latencies.length - 1] ?? 0),
      },
    ]);
    console.log('where the time goes (first attempts):');
    console.table(stages);
  } finally {
    await nc.close();
    for (const r of replicas) await r.stop().catch(() => undefined);
    server.close();
    await infra.close();
    rmSync(tlsDir, { recursive: true, force: true });
  }
}

/**
 * Each delivery's time split at the database's timestamps: publish -> queued (the fan-out transaction
 * began), queued -> sending (its commit, the wake-up and the claim), sending -> received (signing and the
 * POST). Millisecond timestamps on one machine's clock; first attempts of the measured events only.
 */
async function stageBreakdown(
  db: Client,
  published: Map<string, number>,
  received: Map<string, number>,
): Promise<Record<string, { 'p50 ms': number; 'p99 ms': number }>> {
  const { rows } = await db.query<{ id: string; call_id: string; queued: number; started: number }>(
    `SELECT d.id, d.body::jsonb->'data'->>'call_id' AS call_id,
            (extract(epoch FROM d.created_at) * 1000)::float8 AS queued,
            (extract(epoch FROM a.started_at) * 1000)::float8 AS started
       FROM webhooks.deliveries d JOIN webhooks.delivery_attempts a ON a.delivery_id = d.id AND a.attempt = 1`,
  );
  const spans: Record<string, number[]> = {
    'publish -> queued': [],
    'queued -> sending': [],
    'sending -> received': [],
  };
  for (const r of rows) {
    const sent = published.get(r.call_id);
    const got = received.get(r.id);
    if (sent === undefined || got === undefined) continue;
    spans['publish -> queued'].push(r.queued - sent);
    spans['queued -> sending'].push(r.started - r.queued);
    spans['sending -> received'].push(got - r.started);
  }
  const out: Record<string, { 'p50 ms': number; 'p99 ms': number }> = {};
  for (const [stage, values] of Object.entries(spans)) {
    values.sort((a, b) => a - b);
    out[stage] = {
      'p50 ms': Math.round(percentile(values, 50)),
      'p99 ms': Math.round(percentile(values, 99)),
    };
  }
  return out;
}

main().catch((err) => {
  console.error(`bench failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
