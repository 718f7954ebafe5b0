/**
 * Campaign dispatcher benchmark: one campaign of BENCH_CONTACTS contacts (default 10,000) dialled through
 * the calls service on fast sandbox timings. Reports contacts dispatched per second, the most calls seen in
 * flight at once (must equal the concurrency limit, never more) and the latency from a slot's release
 * (call.status.updated with concurrency_released) to the next dial (the next call's first event), p50/p99.
 *
 * Starts its own platform on a fresh database. Settings: BENCH_CONTACTS (10000), BENCH_CONCURRENCY
 * (1..10, default 10; the account limit is set to match), BENCH_SANDBOX_STEP_MS (default 5), BENCH_OUTCOME
 * (the callee numbers' last two digits, default 01: no answer, the shortest sandbox call), BENCH_LOG_DIR
 * (write the apps' logs there).
 */
import { openBenchInfrastructure } from '../support/bench-infrastructure';
import { freePort, startPlatform } from '@vap/testing';
import { connect, StringCodec } from 'nats';
import { Client } from 'pg';
import { randomBytes } from 'node:crypto';

const contacts = Number(process.env.BENCH_CONTACTS ?? 10_000);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 10);
const stepMs = process.env.BENCH_SANDBOX_STEP_MS ?? '5';
const outcome = process.env.BENCH_OUTCOME ?? '01';
const VOICE_ID = '72158370-d269-49a5-ae65-8f33fe3b890b';

/** A domain event as published: occurredAt is when the calls service committed the change. */
interface StatusEvent {
  partnerId: string | null;
  occurredAt: string;
  data: { call_id: string; previous_status: string | null; concurrency_released: boolean };
}

/** Follows the partner's calls: in-flight count, its peak, and release -> next dial gaps. */
class DispatchObserver {
  readonly live = new Set<string>();
  readonly released = new Set<string>();
  readonly gapsMs: number[] = [];
  readonly dialAt = new Map<string, number>();
  readonly releaseAt = new Map<string, number>();
  private readonly releases: number[] = [];
  peak = 0;
  dialled = 0;
  firstDialAt = 0;
  lastDialAt = 0;

  constructor(private readonly partnerId: string) {}

  see(event: StatusEvent): void {
    if (event.partnerId !== this.partnerId) return;
    const { call_id: id, previous_status: previous, concurrency_released: freed } = event.data;
    // Commit times in the calls service: the slot is free once the release commits, a dial is the commit
    // that admitted the next call (data.occurred_at would be the carrier's own time, earlier).
    const t = Date.parse(event.occurredAt);
    if (freed) {
      this.releaseAt.set(id, t);
      if (this.live.delete(id)) this.releases.push(t);
      this.released.add(id);
      return;
    }
    if (previous !== null || this.released.has(id) || this.live.has(id)) return;
    this.live.add(id);
    this.dialAt.set(id, t);
    this.peak = Math.max(this.peak, this.live.size);
    this.dialled++;
    this.firstDialAt ||= t;
    this.lastDialAt = Math.max(this.lastDialAt, t);
    // Releases are matched to dials in order: each dial after the first `concurrency` fills a released slot.
    const release = this.releases.shift();
    if (release !== undefined) this.gapsMs.push(Math.max(0, t - release));
  }
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function json(res: Response): Promise<{ data: Record<string, unknown> & { [k: string]: unknown } }> {
  const body = (await res.json()) as { success: boolean; data: Record<string, unknown>; error?: unknown };
  if (!res.ok) throw new Error(`${res.url} answered ${res.status}: ${JSON.stringify(body.error)}`);
  return body as { data: Record<string, unknown> };
}

async function main(): Promise<void> {
  const infra = await openBenchInfrastructure('vap_bench');
  const { db, nats, prefix } = infra;
  const adminToken = randomBytes(16).toString('hex');
  const gatewayPort = await freePort();
  const platform = await startPlatform({
    databaseUrl: db.url,
    natsUrl: nats.url,
    subjectPrefix: prefix,
    gatewayPorts: [gatewayPort],
    logDir: process.env.BENCH_LOG_DIR,
    env: {
      ADMIN_API_TOKEN: adminToken,
      SECRETS_KEY: randomBytes(32).toString('hex'),
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_GENERAL_PER_MINUTE: '1000000000',
      RATE_LIMIT_CALLS_PER_MINUTE: '1000000000',
      CALLBACK_BASE_URL: `http://127.0.0.1:${gatewayPort}`,
      SANDBOX_STEP_MS: stepMs,
    },
  });
  const nc = await connect({ servers: nats.url, name: 'bench-campaigns' });
  try {
    const base = platform.gatewayUrl;
    const admin = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' };
    const created = await json(
      await fetch(`${base}/admin/v1/partners`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify({ name: 'Bench Co', balance_inr: 100_000_000, concurrency_limit: concurrency }),
      }),
    );
    const partnerId = (created.data.partner as { id: string }).id;
    const headers = {
      authorization: `Bearer ${created.data.api_key as string}`,
      'content-type': 'application/json',
    };
    const agent = await json(
      await fetch(`${base}/api/v2/agent`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          agent_name: 'Bench Caller',
          prompt: 'You call to remind.',
          voice_id: VOICE_ID,
          agent_type: 'outbound',
        }),
      }),
    );
    const campaign = await json(
      await fetch(`${base}/api/v2/campaigns`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: 'Bench', agent_id: agent.data.id, concurrency_limit: concurrency }),
      }),
    );
    const id = campaign.data.campaign_id as string;
    // Distinct numbers whose last two digits pick the sandbox outcome.
    const csv = [
      'phone_number',
      ...Array.from({ length: contacts }, (_, i) => `+9170${String(i).padStart(8, '0')}${outcome}`),
    ];
    const uploadStarted = Date.now();
    const upload = await json(
      await fetch(`${base}/api/v2/campaigns/${id}/contacts`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'text/csv' },
        body: csv.join('\n'),
      }),
    );
    const uploadMs = Date.now() - uploadStarted;
    if (upload.data.accepted !== contacts)
      throw new Error(`upload accepted ${String(upload.data.accepted)} of ${contacts}`);

    const observer = new DispatchObserver(partnerId);
    const sc = StringCodec();
    nc.subscribe(`${prefix}.events.call.status_updated`, {
      callback: (err, msg) => {
        if (!err) observer.see(JSON.parse(sc.decode(msg.data)) as StatusEvent);
      },
    });
    await nc.flush();

    console.log(
      `campaign benchmark: ${contacts} contacts, concurrency ${concurrency}, sandbox step ${stepMs} ms, outcome ${outcome}, Node ${process.version}`,
    );
    const started = Date.now();
    await json(await fetch(`${base}/api/v2/campaigns/${id}/start`, { method: 'POST', headers, body: '{}' }));
    let status = 'running';
    let lastReport = started;
    while (status !== 'completed') {
      await new Promise((r) => setTimeout(r, 1000));
      status = (await json(await fetch(`${base}/api/v2/campaigns/${id}`, { headers }))).data.status as string;
      if (Date.now() - lastReport >= 10_000) {
        lastReport = Date.now();
        console.log(
          `  ${Math.round((Date.now() - started) / 1000)} s: ${observer.dialled} dialled, ${observer.live.size} in flight`,
        );
      }
    }
    const elapsedS = (Date.now() - started) / 1000;
    const gaps = [...observer.gapsMs].sort((a, b) => a - b);
    const dialSpanS = (observer.lastDialAt - observer.firstDialAt) / 1000;
    console.table([
      {
        contacts,
        'upload ms (CSV)': uploadMs,
        dialled: observer.dialled,
        'dispatched/s': Math.round((observer.dialled / Math.max(dialSpanS, 0.001)) * 10) / 10,
        'campaign s': Math.round(elapsedS * 10) / 10,
        'max in flight': observer.peak,
        limit: concurrency,
        'release->dial p50 ms': percentile(gaps, 50),
        'release->dial p99 ms': percentile(gaps, 99),
        'release->dial max ms': gaps[gaps.length - 1],
      },
    ]);
    // Where the release -> dial time goes: the event reaching the campaigns service, then claim -> call.
    const pg = new Client({ connectionString: db.url });
    await pg.connect();
    const rows = (
      await pg.query<{ call_id: string; created_at: Date; ended_at: Date }>(
        `SELECT call_id, created_at, ended_at FROM campaigns.attempts WHERE campaign_id = $1 AND status = 'ended'`,
        [id],
      )
    ).rows;
    await pg.end();
    const sorted = (xs: number[]) => xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
    const settle = sorted(rows.map((r) => r.ended_at.getTime() - (observer.releaseAt.get(r.call_id) ?? NaN)));
    const place = sorted(rows.map((r) => (observer.dialAt.get(r.call_id) ?? NaN) - r.created_at.getTime()));
    console.table([
      {
        stage: 'release event -> campaigns settled it',
        'p50 ms': percentile(settle, 50),
        'p99 ms': percentile(settle, 99),
      },
      {
        stage: 'claim -> call admitted by calls',
        'p50 ms': percentile(place, 50),
        'p99 ms': percentile(place, 99),
      },
    ]);
    if (observer.peak > concurrency)
      console.error(`FAIL: ${observer.peak} calls in flight exceeded the limit ${concurrency}`);
  } finally {
    await nc.drain().catch(() => undefined);
    await platform.stop();
    await infra.close();
  }
}

main().catch((err) => {
  console.error(`bench failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
