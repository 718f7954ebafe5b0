/**
 * Many campaigns of many partners at once: BENCH_CAMPAIGNS campaigns (default 100) spread over BENCH_PARTNERS
 * partners (default 20), all started together on fast sandbox timings, each with BENCH_CONTACTS contacts
 * (default 20). Every campaign may dial BENCH_CONCURRENCY calls at once (default 2) and every partner
 * BENCH_ACCOUNT_LIMIT (default 5), so a partner's campaigns together want more slots than its account has:
 * both limits bind at once, under contention from every other partner's dials and ends.
 *
 * Follows every call.status.updated on NATS and checks, replaying each partner's dials and releases in the order
 * the calls service counted them (see the replay below):
 * - no partner ever has more calls in flight than its account limit, and no campaign more than its own;
 * - each dial's and release's account_concurrency is exact: per partner and count v, as many dials reported
 *   v as releases reported v - 1 (a walk from 0 back to 0), and none reported more than the limit;
 * - every contact ends exactly once (the campaigns' counters add up to their contacts).
 * Reports those violations (target 0), dials per second, and per partner the latency from a released slot
 * to its next dial (p50/p99) while the partner had contacts waiting.
 *
 * Starts its own platform on a fresh database. Other settings: BENCH_SANDBOX_STEP_MS (5), BENCH_OUTCOME (the
 * callee numbers' last two digits, default 01: no answer), BENCH_TIMEOUT_S (600), BENCH_LOG_DIR, BENCH_CPU_PROF=<dir>
 * (a V8 CPU profile of the gateway, calls, campaigns and webhooks services).
 */
import { connect, StringCodec } from 'nats';
import { Client } from 'pg';
import { reportFigures } from '../support/figures';
import { percentile } from '../support/percentiles';
import { quantileUpperBoundMs, readHistogram } from '../support/prometheus-histogram';
import {
  dispatchOutcomes,
  json,
  metricsOf,
  printGapStages,
  startCampaignBenchPlatform,
} from './campaign-bench-platform';

const partners = Number(process.env.BENCH_PARTNERS ?? 20);
const campaigns = Number(process.env.BENCH_CAMPAIGNS ?? 100);
const contactsPerCampaign = Number(process.env.BENCH_CONTACTS ?? 20);
const campaignLimit = Number(process.env.BENCH_CONCURRENCY ?? 2);
const accountLimit = Number(process.env.BENCH_ACCOUNT_LIMIT ?? 5);
const stepMs = process.env.BENCH_SANDBOX_STEP_MS ?? '5';
const outcome = process.env.BENCH_OUTCOME ?? '01';
const timeoutS = Number(process.env.BENCH_TIMEOUT_S ?? 600);
const cpuProfileDir = process.env.BENCH_CPU_PROF;
const VOICE_ID = '72158370-d269-49a5-ae65-8f33fe3b890b';
const ATTEMPT_REF_PREFIX = 'cma_';

for (const [name, value] of Object.entries({ partners, campaigns, contactsPerCampaign, accountLimit })) {
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer`);
}
if (!Number.isInteger(campaignLimit) || campaignLimit < 1 || campaignLimit > 10)
  throw new Error('BENCH_CONCURRENCY must be 1..10');

/** The parts of a published call.status.updated this benchmark reads. */
interface StatusEvent {
  partnerId: string | null;
  occurredAt: string;
  data: {
    call_id: string;
    client_reference_id: string | null;
    previous_status: string | null;
    concurrency_released: boolean;
    account_concurrency: { limit: number | null; active: number } | null;
  };
}

interface Tenant {
  partnerId: string;
  headers: Record<string, string>;
  campaignIds: string[];
}

/** Calls in flight per key (a partner, a campaign) as their moves are replayed, and the peak of each key. */
class FlightLedger {
  private readonly live = new Map<string, Set<string>>();
  readonly peak = new Map<string, number>();

  /** A call starts flying under `key`. */
  dial(key: string, callId: string): void {
    let calls = this.live.get(key);
    if (!calls) this.live.set(key, (calls = new Set()));
    calls.add(callId);
    this.peak.set(key, Math.max(this.peak.get(key) ?? 0, calls.size));
  }

  /** The call's slot under `key` is released. */
  release(key: string, callId: string): void {
    this.live.get(key)?.delete(callId);
  }

  flying(key: string, callId: string): boolean {
    return this.live.get(key)?.has(callId) ?? false;
  }
}

async function main(): Promise<void> {
  const setup = await startCampaignBenchPlatform({ databaseLabel: 'vap_bench_fleet', stepMs, cpuProfileDir });
  const { infra, platform } = setup;
  const { db, nats, prefix } = infra;
  const nc = await connect({ servers: nats.url, name: 'bench-campaign-fleet' });
  const pg = new Client({ connectionString: db.url });
  await pg.connect();
  try {
    const base = platform.gatewayUrl;
    const admin = setup.adminHeaders;
    const tenants: Tenant[] = [];
    for (let p = 0; p < partners; p++) {
      const created = await json<{ partner: { id: string }; api_key: string }>(
        await fetch(`${base}/admin/v1/partners`, {
          method: 'POST',
          headers: admin,
          body: JSON.stringify({
            name: `Fleet ${p}`,
            balance_inr: 10_000_000,
            concurrency_limit: accountLimit,
          }),
        }),
      );
      tenants.push({
        partnerId: created.partner.id,
        headers: { authorization: `Bearer ${created.api_key}`, 'content-type': 'application/json' },
        campaignIds: [],
      });
    }
    // Campaigns are dealt round robin over the partners; every callee number is distinct across the run.
    let contactsTotal = 0;
    const agents = new Map<Tenant, string>();
    for (let c = 0; c < campaigns; c++) {
      const tenant = tenants[c % partners];
      let agentId = agents.get(tenant);
      if (!agentId) {
        agentId = (
          await json<{ id: string }>(
            await fetch(`${base}/api/v2/agent`, {
              method: 'POST',
              headers: tenant.headers,
              body: JSON.stringify({
                agent_name: 'Fleet Caller',
                prompt: 'You call to remind.',
                voice_id: VOICE_ID,
                agent_type: 'outbound',
              }),
            }),
          )
        ).id;
        agents.set(tenant, agentId);
      }
      const campaign = await json<{ campaign_id: string }>(
        await fetch(`${base}/api/v2/campaigns`, {
          method: 'POST',
          headers: tenant.headers,
          body: JSON.stringify({ name: `Fleet ${c}`, agent_id: agentId, concurrency_limit: campaignLimit }),
        }),
      );
      const csv = ['phone_number'];
      for (let i = 0; i < contactsPerCampaign; i++)
        csv.push(`+9175${String(c * contactsPerCampaign + i).padStart(8, '0')}${outcome}`);
      const upload = await json<{ accepted: number }>(
        await fetch(`${base}/api/v2/campaigns/${campaign.campaign_id}/contacts`, {
          method: 'POST',
          headers: { ...tenant.headers, 'content-type': 'text/csv' },
          body: csv.join('\n'),
        }),
      );
      if (upload.accepted !== contactsPerCampaign)
        throw new Error(`campaign ${c}: upload accepted ${upload.accepted} of ${contactsPerCampaign}`);
      tenant.campaignIds.push(campaign.campaign_id);
      contactsTotal += contactsPerCampaign;
    }

    const events: StatusEvent[] = [];
    const sc = StringCodec();
    nc.subscribe(`${prefix}.events.call.status_updated`, {
      callback: (err, msg) => {
        if (!err) events.push(JSON.parse(sc.decode(msg.data)) as StatusEvent);
      },
    });
    await nc.flush();

    console.log(
      `campaign fleet benchmark: ${campaigns} campaigns of ${partners} partners, ${contactsPerCampaign} contacts ` +
        `each (${contactsTotal} calls), campaign limit ${campaignLimit}, account limit ${accountLimit}, sandbox ` +
        `step ${stepMs} ms, outcome ${outcome}, Node ${process.version}`,
    );
    const started = Date.now();
    // Every campaign started at once, as partners would, each through its own key.
    await Promise.all(
      tenants.flatMap((t) =>
        t.campaignIds.map(async (id) =>
          json(
            await fetch(`${base}/api/v2/campaigns/${id}/start`, {
              method: 'POST',
              headers: t.headers,
              body: '{}',
            }),
          ),
        ),
      ),
    );
    const ids = tenants.flatMap((t) => t.campaignIds);
    let lastReport = started;
    for (;;) {
      await new Promise((r) => setTimeout(r, 1000));
      const { rows } = await pg.query<{ open: string }>(
        `SELECT count(*) AS open FROM campaigns.campaigns WHERE id = ANY($1) AND status <> 'completed'`,
        [ids],
      );
      if (Number(rows[0].open) === 0) break;
      if (Date.now() - started > timeoutS * 1000)
        throw new Error(`${rows[0].open} campaigns still open after ${timeoutS} s`);
      if (Date.now() - lastReport >= 10_000) {
        lastReport = Date.now();
        console.log(`  ${Math.round((Date.now() - started) / 1000)} s: ${rows[0].open} campaigns open`);
      }
    }
    const elapsedS = (Date.now() - started) / 1000;
    // The last call's final event may still be on its way to this subscriber.
    await new Promise((r) => setTimeout(r, 1000));

    const dispatchMetrics = await metricsOf(platform, 'campaigns');
    console.log(`campaign dispatch outcomes: ${dispatchOutcomes(dispatchMetrics)}`);
    // The commands on the way from a claim to an admission, as the services timed them (bucket upper bounds):
    // the start command's round trip from campaigns, its handling in calls, and what calls asks meanwhile.
    const callsMetrics = await metricsOf(platform, 'calls');
    const commandRows: Record<string, string | number>[] = [];
    const timed = (service: string, exposition: string, metric: string, kind: string) => {
      const subjects = new Set(
        [...exposition.matchAll(new RegExp(`^${metric}_count\\{[^}]*subject="([^"]+)"`, 'gm'))].map(
          (m) => m[1],
        ),
      );
      for (const subject of subjects) {
        const h = readHistogram(exposition, metric, { name: 'subject', value: subject });
        commandRows.push({
          service,
          kind,
          subject,
          count: h.get(Infinity) ?? 0,
          'p50 ms': `<= ${quantileUpperBoundMs(h, 0.5)}`,
          'p99 ms': `<= ${quantileUpperBoundMs(h, 0.99)}`,
        });
      }
    };
    timed('campaigns', dispatchMetrics, 'vap_nats_request_duration_seconds', 'asked');
    timed('calls', callsMetrics, 'vap_nats_handler_duration_seconds', 'handled');
    timed('calls', callsMetrics, 'vap_nats_request_duration_seconds', 'asked');
    console.table(commandRows);
    // Which campaign each call dialled for: its attempt (the attempt id is the call's client_reference_id).
    const { rows: attempts } = await pg.query<{
      id: string;
      campaign_id: string;
      call_id: string | null;
      created_at: Date;
      ended_at: Date | null;
    }>(
      `SELECT id, campaign_id, call_id, created_at, ended_at FROM campaigns.attempts WHERE campaign_id = ANY($1)`,
      [ids],
    );
    const campaignOfAttempt = new Map(attempts.map((a) => [a.id, a.campaign_id]));
    const { rows: counters } = await pg.query<{ id: string; done: number; total: number }>(
      `SELECT id, completed_count + failed_count + skipped_count AS done, total_contacts AS total
       FROM campaigns.campaigns WHERE id = ANY($1)`,
      [ids],
    );

    // The moves that change a partner's count (a dial, a release) each hold the partner's count row from
    // their write to their commit, and stamp occurredAt while holding it: per partner, occurredAt orders
    // them as the calls service counted them. Publication order does not (the outbox relays by transaction
    // start). Within one millisecond a release is put before a dial, as the lock must have ordered them for
    // the dial to find a slot; a dial that really came first still shows in its own reported count.
    const moves = events
      .map((event, index) => ({ event, index, t: Date.parse(event.occurredAt) }))
      .filter(({ event }) => {
        const ref = event.data.client_reference_id;
        return event.partnerId && ref?.startsWith(ATTEMPT_REF_PREFIX);
      })
      .filter(({ event }) => event.data.concurrency_released || event.data.previous_status === null)
      .sort(
        (a, b) =>
          a.t - b.t ||
          Number(b.event.data.concurrency_released) - Number(a.event.data.concurrency_released) ||
          a.index - b.index,
      );
    const releaseAt = new Map<string, number>();
    const dialAt = new Map<string, number>();
    const accounts = new FlightLedger();
    const perCampaign = new FlightLedger();
    const waitingRelease = new Map<string, number[]>();
    // Per partner and count v: dials that reported v minus releases that reported v - 1. A +1/-1 walk from 0
    // back to 0 steps up to v as often as it steps down from it, in whatever order the events arrive: any
    // count other than 0 is an event whose account_concurrency was off.
    const steps = new Map<string, number>();
    const step = (partner: string, v: number, by: number) =>
      steps.set(`${partner}/${v}`, (steps.get(`${partner}/${v}`) ?? 0) + by);
    const gapsMs: number[] = [];
    let dials = 0;
    let overReported = 0;
    let maxReported = 0;
    let firstDial = Infinity;
    let lastDial = 0;
    for (const { event, t } of moves) {
      const partner = event.partnerId!;
      const id = event.data.call_id;
      const campaign = campaignOfAttempt.get(event.data.client_reference_id!) ?? '?';
      const reported = event.data.account_concurrency;
      if (event.data.concurrency_released) {
        if (!accounts.flying(partner, id)) continue;
        accounts.release(partner, id);
        releaseAt.set(id, t);
        perCampaign.release(campaign, id);
        const queue = waitingRelease.get(partner) ?? [];
        queue.push(t);
        waitingRelease.set(partner, queue);
        if (reported) step(partner, reported.active + 1, -1);
      } else {
        if (accounts.flying(partner, id)) continue;
        accounts.dial(partner, id);
        dialAt.set(id, t);
        perCampaign.dial(campaign, id);
        dials++;
        firstDial = Math.min(firstDial, t);
        lastDial = Math.max(lastDial, t);
        // Releases are matched to the partner's dials in order: each dial after its first slots fills one.
        const release = waitingRelease.get(partner)?.shift();
        if (release !== undefined) gapsMs.push(Math.max(0, t - release));
        if (reported) step(partner, reported.active, +1);
      }
      if (reported) {
        maxReported = Math.max(maxReported, reported.active);
        if (reported.limit !== null && reported.active > reported.limit) overReported++;
      }
    }
    const inexact = [...steps.values()].filter((n) => n !== 0).length;
    const accountViolations = [...accounts.peak.values()].filter((n) => n > accountLimit).length;
    const campaignViolations = [...perCampaign.peak.values()].filter((n) => n > campaignLimit).length;
    const miscounted = counters.filter((c) => Number(c.done) !== Number(c.total)).length;
    gapsMs.sort((a, b) => a - b);
    const dialsPerS = Math.round((dials / Math.max((lastDial - firstDial) / 1000, 0.001)) * 10) / 10;
    console.table([
      {
        campaigns,
        partners,
        dialled: dials,
        'dials/s': dialsPerS,
        'run s': Math.round(elapsedS * 10) / 10,
        'max per account': Math.max(0, ...accounts.peak.values()),
        'max account_concurrency reported': maxReported,
        'account limit': accountLimit,
        'max per campaign': Math.max(0, ...perCampaign.peak.values()),
        'campaign limit': campaignLimit,
        'release->dial p50 ms': percentile(gapsMs, 50),
        'release->dial p99 ms': percentile(gapsMs, 99),
      },
    ]);
    console.table([
      {
        'accounts over their limit': accountViolations,
        'campaigns over their limit': campaignViolations,
        'account counts whose events do not pair up': inexact,
        'events reporting active > limit': overReported,
        'campaigns whose counters miss a contact': miscounted,
      },
    ]);
    printGapStages(attempts, releaseAt, dialAt);
    const bench = `campaign fleet (${campaigns} campaigns of ${partners} partners)`;
    reportFigures([
      {
        bench,
        figure: 'limit violations',
        value: accountViolations + campaignViolations,
        unit: 'times',
        target: { op: '<=', value: 0 },
      },
      {
        bench,
        figure: 'inexact account_concurrency',
        value: inexact + overReported,
        unit: 'events',
        target: { op: '<=', value: 0 },
      },
      {
        bench,
        figure: 'contacts lost or counted twice',
        value: miscounted,
        unit: 'campaigns',
        target: { op: '<=', value: 0 },
      },
      {
        bench,
        figure: 'release -> next dial p99 (per partner)',
        value: percentile(gapsMs, 99),
        unit: 'ms',
        target: { op: '<', value: 50 },
      },
      { bench, figure: 'dials/s', value: dialsPerS, unit: '/s' },
    ]);
    if (dials !== contactsTotal) console.error(`FAIL: ${dials} dials seen for ${contactsTotal} contacts`);
    if (
      accountViolations + campaignViolations + inexact + overReported + miscounted > 0 ||
      dials !== contactsTotal
    )
      process.exitCode = 1;
  } finally {
    await pg.end().catch(() => undefined);
    await nc.drain().catch(() => undefined);
    await setup.close();
  }
}

main().catch((err) => {
  console.error(`bench failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
