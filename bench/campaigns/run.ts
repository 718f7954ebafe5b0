/**
 * Campaign dispatcher benchmark: one campaign of BENCH_CONTACTS contacts (default 10,000) dialled through
 * the calls service on fast sandbox timings. Reports contacts dispatched per second, the most calls seen in
 * flight at once (must equal the concurrency limit, never more) and the latency from a slot's release
 * (call.status.updated with concurrency_released) to the next dial (the next call's first event), p50/p99.
 *
 * Starts its own platform on a fresh database. Settings: BENCH_CONTACTS (10000), BENCH_CONCURRENCY
 * (1..10, default 10; the account limit is set to match), BENCH_SANDBOX_STEP_MS (default 5), BENCH_OUTCOME
 * (the callee numbers' last two digits, default 01: no answer, the shortest sandbox call), BENCH_REPLICAS
 * (campaigns service replicas, default 1: they share the dispatch), BENCH_LOG_DIR (write the apps' logs there).
 *
 * Contact policy: the account's do-not-call list holds BENCH_DNC_ENTRIES numbers (default 1,000,000; seeded
 * in SQL, then one 10,000-row CSV import through the API, timed) and 1 % of the campaign's contacts, which
 * the campaign must skip. The account also has a calling window (open all day, so every rule runs and none
 * defers) and both frequency caps, so each dial pays for the whole policy. Reports what the check adds per
 * dial, from the calls service's vap_contact_policy_check_seconds (do-not-call, window) and
 * vap_contact_policy_caps_seconds (the caps' count in the admission) histograms (bucket upper bounds), and
 * the do-not-call query timed from here over 10,000 numbers against the same list (p50/p99).
 */
import { reportFigures } from '../support/figures';
import { percentile } from '../support/percentiles';
import {
  AttemptTimes,
  dispatchOutcomes,
  json,
  metricsOf,
  printGapStages,
  startCampaignBenchPlatform,
} from './campaign-bench-platform';
import { quantileUpperBoundMs, readHistogram } from '../support/prometheus-histogram';
import { connect, StringCodec } from 'nats';
import { doNotCallPrefixesOf } from '@vap/api';
import { Client } from 'pg';

const contacts = Number(process.env.BENCH_CONTACTS ?? 10_000);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 10);
const stepMs = process.env.BENCH_SANDBOX_STEP_MS ?? '5';
const outcome = process.env.BENCH_OUTCOME ?? '01';
const VOICE_ID = '72158370-d269-49a5-ae65-8f33fe3b890b';
const dncEntries = Number(process.env.BENCH_DNC_ENTRIES ?? 1_000_000);
const replicaCount = Math.max(1, Number(process.env.BENCH_REPLICAS ?? 1));
/** Every hundredth contact is on the list: the campaign skips it. */
const LISTED_EVERY = 100;
const POLICY_METRIC = 'vap_contact_policy_check_seconds';
const CAPS_METRIC = 'vap_contact_policy_caps_seconds';
/** The check's query as the calls service runs it (see doNotCallMatches). */
const CHECK_SQL = `SELECT * FROM calls.do_not_call d WHERE d.partner_id = $1 AND d.value = ANY($2)
  AND (d.kind = 'prefix' OR d.value = $3) ORDER BY length(d.value) DESC, d.kind ASC`;

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

async function main(): Promise<void> {
  const setup = await startCampaignBenchPlatform({
    databaseLabel: 'vap_bench',
    stepMs,
    replicas: { campaigns: replicaCount },
  });
  const { infra, platform } = setup;
  const { db, nats, prefix } = infra;
  const nc = await connect({ servers: nats.url, name: 'bench-campaigns' });
  try {
    const base = platform.gatewayUrl;
    const admin = setup.adminHeaders;
    const created = await json(
      await fetch(`${base}/admin/v1/partners`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify({ name: 'Bench Co', balance_inr: 100_000_000, concurrency_limit: concurrency }),
      }),
    );
    const partnerId = (created.partner as { id: string }).id;
    const headers = {
      authorization: `Bearer ${created.api_key as string}`,
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
        body: JSON.stringify({ name: 'Bench', agent_id: agent.id, concurrency_limit: concurrency }),
      }),
    );
    const id = campaign.campaign_id as string;
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
    if (upload.accepted !== contacts)
      throw new Error(`upload accepted ${String(upload.accepted)} of ${contacts}`);

    // The do-not-call list: a million numbers outside the campaign's range, seeded in SQL (as a migration from
    // another system would), one API import timed, and every LISTED_EVERY-th contact of the campaign.
    const pgSeed = new Client({ connectionString: db.url });
    await pgSeed.connect();
    const seedStarted = Date.now();
    const seeded = Math.max(0, dncEntries - 10_000);
    if (seeded > 0) {
      await pgSeed.query(
        `INSERT INTO calls.do_not_call (id, partner_id, kind, value, reason, source)
         SELECT 'dnc_' || gen_random_uuid(), $1, 'number', '+9171' || lpad(i::text, 8, '0'), 'legal', 'bench'
         FROM generate_series(1, $2::int) AS i`,
        [partnerId, seeded],
      );
      await pgSeed.query('ANALYZE calls.do_not_call');
    }
    const seedMs = Date.now() - seedStarted;
    const importCount = Math.min(10_000, dncEntries);
    const importRows = ['number,reason'];
    for (let i = 0; i < importCount; i++) importRows.push(`+9172${String(i).padStart(8, '0')},opt_out`);
    const importStarted = Date.now();
    const imported =
      importCount > 0
        ? await json(
            await fetch(`${base}/api/v2/do-not-call/import`, {
              method: 'POST',
              headers: { ...headers, 'content-type': 'text/csv' },
              body: importRows.join('\n'),
            }),
          )
        : { added: 0 };
    const importMs = Date.now() - importStarted;
    const listed: string[] = [];
    for (let i = 0; i < contacts; i += LISTED_EVERY)
      listed.push(`+9170${String(i).padStart(8, '0')}${outcome}`);
    await json(
      await fetch(`${base}/api/v2/do-not-call/import`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ entries: listed.map((number) => ({ number, reason: 'opt_out' })) }),
      }),
    );
    console.log(
      `do-not-call list: ${seeded} numbers seeded in ${seedMs} ms, ${String(imported.added)} imported through ` +
        `the API in ${importMs} ms, ${listed.length} campaign contacts listed`,
    );

    // Every rule active, none stopping a dial: a window open all day in the callees' zone, caps above one call.
    await json(
      await fetch(`${base}/api/v2/contact-policy/settings`, {
        method: 'PATCH',
        headers,
        body: JSON.stringify({
          calling_window: { start: '00:00', end: '24:00', timezone: 'Asia/Kolkata' },
          max_attempts_per_day: 3,
          max_attempts_per_7_days: 10,
        }),
      }),
    );

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
      status = (await json(await fetch(`${base}/api/v2/campaigns/${id}`, { headers }))).status as string;
      if (Date.now() - lastReport >= 10_000) {
        lastReport = Date.now();
        console.log(
          `  ${Math.round((Date.now() - started) / 1000)} s: ${observer.dialled} dialled, ${observer.live.size} in flight`,
        );
      }
    }
    const elapsedS = (Date.now() - started) / 1000;
    const campaignDone = await json(await fetch(`${base}/api/v2/campaigns/${id}`, { headers }));
    const metrics = await metricsOf(platform, 'calls');
    const allowedCheck = readHistogram(metrics, POLICY_METRIC, { name: 'result', value: 'allowed' });
    const stoppedCheck = readHistogram(metrics, POLICY_METRIC, { name: 'result', value: 'stopped' });
    const capsCount = readHistogram(metrics, CAPS_METRIC, { name: 'result', value: 'allowed' });
    // How the dispatcher's asks ended: a deferral (the account full) waits ACCOUNT_FULL_BACKOFF_MS.
    console.log(`campaign dispatch outcomes: ${dispatchOutcomes(await metricsOf(platform, 'campaigns'))}`);
    // The same probe from here, over numbers on and off the list.
    const checkMs: number[] = [];
    for (let i = 0; i < 10_000; i++) {
      const number =
        i % 2
          ? `+9171${String((i * 7919) % Math.max(1, seeded)).padStart(8, '0')}`
          : `+9173${String(i).padStart(8, '0')}`;
      const t0 = performance.now();
      await pgSeed.query(CHECK_SQL, [partnerId, doNotCallPrefixesOf(number), number]);
      checkMs.push(performance.now() - t0);
    }
    await pgSeed.end();
    checkMs.sort((a, b) => a - b);
    console.table([
      {
        'do-not-call entries': seeded + Number(imported.added) + listed.length,
        'skipped (listed)': campaignDone.skipped_count,
        'check in calls p50 ms (allowed)': `<= ${quantileUpperBoundMs(allowedCheck, 0.5)}`,
        'check in calls p99 ms (allowed)': `<= ${quantileUpperBoundMs(allowedCheck, 0.99)}`,
        'check in calls p99 ms (stopped)': `<= ${quantileUpperBoundMs(stoppedCheck, 0.99)}`,
        'caps count p50 ms': `<= ${quantileUpperBoundMs(capsCount, 0.5)}`,
        'caps count p99 ms': `<= ${quantileUpperBoundMs(capsCount, 0.99)}`,
        'probe p50 ms': Math.round(percentile(checkMs, 50) * 1000) / 1000,
        'probe p99 ms': Math.round(percentile(checkMs, 99) * 1000) / 1000,
        'import 10k rows ms': importMs,
      },
    ]);
    if (campaignDone.skipped_count !== listed.length)
      console.error(`FAIL: ${String(campaignDone.skipped_count)} contacts skipped, ${listed.length} listed`);
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
    const { rows } = await pg.query<AttemptTimes>(
      `SELECT call_id, created_at, ended_at FROM campaigns.attempts WHERE campaign_id = $1 AND status = 'ended'`,
      [id],
    );
    await pg.end();
    printGapStages(rows, observer.releaseAt, observer.dialAt);
    const replicas = replicaCount === 1 ? '' : `, ${replicaCount} campaigns replicas`;
    const bench = `campaigns (${contacts} contacts, concurrency ${concurrency}${replicas})`;
    reportFigures([
      {
        bench,
        figure: 'release -> next dial p99',
        value: percentile(gaps, 99),
        unit: 'ms',
        target: { op: '<', value: 50 },
      },
      { bench, figure: 'release -> next dial p50', value: percentile(gaps, 50), unit: 'ms' },
      {
        bench,
        figure: 'most calls in flight',
        value: observer.peak,
        unit: 'calls',
        target: { op: '<=', value: concurrency },
      },
      {
        bench,
        figure: 'do-not-call check p99 (its query, 1M entries)',
        value: percentile(checkMs, 99),
        unit: 'ms',
        target: { op: '<', value: 1 },
      },
      {
        bench,
        figure: 'contact policy check p99 inside the calls service (with its pool and event-loop waits)',
        value: quantileUpperBoundMs(allowedCheck, 0.99),
        unit: 'ms',
      },
      {
        bench,
        figure: 'frequency caps count p99 inside the admission',
        value: quantileUpperBoundMs(capsCount, 0.99),
        unit: 'ms',
      },
      { bench, figure: 'do-not-call import (10,000 rows)', value: importMs, unit: 'ms' },
      {
        bench,
        figure: 'dispatched/s',
        value: Math.round((observer.dialled / Math.max(dialSpanS, 0.001)) * 10) / 10,
        unit: '/s',
      },
    ]);
    if (observer.peak > concurrency)
      console.error(`FAIL: ${observer.peak} calls in flight exceeded the limit ${concurrency}`);
  } finally {
    await nc.drain().catch(() => undefined);
    await setup.close();
  }
}

main().catch((err) => {
  console.error(`bench failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
