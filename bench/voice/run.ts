/**
 * Voice media-plane benchmark: N simulated carrier_b calls at once against the built voice service, with
 * providers that answer at once, so every millisecond measured is the platform's own.
 *
 * Starts NATS (as `npm start` finds it) under a subject prefix of its own, fake OpenAI-compatible STT, chat and
 * TTS servers in this process, fake calls and agents services on NATS (attach answers each call's context, the
 * reports are acked and the agent turns' latency parts kept, the speech plan puts the agent's voice on the fake TTS), then
 * the voice service itself. The simulated callers run in a process of their own (caller-fleet.ts), so the fakes'
 * work does not delay their arrival timestamps. Each round opens N media streams (ramped over BENCH_RAMP_MS) that stream caller audio in real time: per turn a
 * second of loud speech-like audio, then silence until the agent has answered and gone quiet.
 *
 * Reports per round: the peak of the service's voice_live_sessions gauge; frames received per call; pacing
 * jitter |arrival gap - 20 ms| of the agent's frames inside its utterances (p50/p99); underruns (a gap over 40 ms
 * or filler silence inside an utterance); the platform's own time per turn, first_frame_out_ms - stt_final_ms
 * from the reported latency parts (p50/p99); CPU seconds per call and RSS growth per call of the voice
 * process(es) (from /proc); bytes the voice process allocated per call-second (its V8 heap, and what Buffers held
 * outside it), how often it scavenged and its longest pauses (gc-probe.ts, over its inspector). Rounds run one
 * after another on the same voice processes.
 *
 * With two cores or more and taskset installed the voice processes run on the last core and everything else of
 * the benchmark (this process's fakes, the callers' process) on the first, so the pacing figures are the voice
 * process's own (BENCH_PIN=0 leaves them be).
 *
 * BENCH_BASELINE_ROOT=<checkout with a built voice app> runs every round first on that build and then on this
 * one, back to back on the same machine, and prints this build's figures over the baseline's.
 *
 * With BENCH_TRANSPORT=browser the calls are browser sessions instead (`/browser/<id>`, binary PCM16 16 kHz frames
 * both ways, marks echoed as `played`, docs/voice.md "Browser stream protocol"), attached as carrier `browser`
 * with the page's Origin header; with BENCH_TRANSPORT=mixed every other call is one (half and half), and the round
 * is reported as a whole and per transport (CPU and RSS per call are the whole round's: one process serves both).
 *
 * With BENCH_REPLICAS (e.g. "1 2") every round runs against 1 and then 2 voice replicas on this machine, the calls
 * spread over them as a load balancer would (figures summed over the replicas).
 *
 * Usage: node dist/bench/bench/voice/run.js [N ...]   (default: 100 200)
 * Settings: BENCH_TRANSPORT (phone | browser | mixed; phone), BENCH_REPLICAS (1), BENCH_TURNS (2), BENCH_TTS_SECONDS (2, speech per synthesis), BENCH_INTRO (a short greeting;
 * empty for none), BENCH_RAMP_MS (2000), BENCH_WARMUP_CALLS (20: an unreported first round per set of replicas, so
 * the figures are not those of V8 compiling the hot paths; 0 for none), BENCH_VOICE_NODE_ARGS (extra Node flags for the voice processes), BENCH_LOGS=1 prints the voice service's output, BENCH_CPU_PROF=<dir>
 * writes a V8 CPU profile of the voice service there (open it in Chrome DevTools), BENCH_HEAP_PROF=<dir> a sampling
 * heap profile of each round (every allocation, young garbage included) and prints its top allocation sites,
 * BENCH_PIN (1), BENCH_BASELINE_ROOT (none).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { connect } from 'nats';
import { FRAME_MS } from '@vap/media';
import { freePort, ServiceHandle, sleep, startService, workspaceRoot } from '@vap/testing';
import { openBenchNats } from '../support/bench-nats';
import { reportFigures } from '../support/figures';
import { figure } from '../support/percentiles';
import {
  BENCH_BROWSER_ORIGIN,
  benchSpeechPlan,
  BenchTransport,
  benchAgentSettings,
  benchCall,
  transportOf,
} from './bench-call';
import { CallerFleet } from './caller-fleet';
import { pinningWanted, pinToCore, processTree } from './core-pinning';
import { FakePlatformResponder, startFakePlatformResponder } from './fake-platform-responder';
import { FakeSpeechProviderCounts, startFakeSpeechProviders } from './fake-speech-providers';
import { AllocationSite, GcProbe } from './gc-probe';
import { LiveSessionsWatcher } from './live-sessions';
import { RoundMemory, roundMemory, memoryRatios } from './round-memory';
import { ProcessSampler, readProcessUsage } from './process-sampler';
import {
  RoundInput,
  RoundReport,
  roundFigures,
  summariseRound,
  summariseShare,
  targetVerdicts,
} from './round-report';
import { scrapeSendPacing, sendPacingBetween } from './send-pacing';
import { benchVoiceEnv } from './voice-env';

const rounds = process.argv.slice(2).map(Number);
if (rounds.some((n) => !Number.isInteger(n) || n <= 0)) {
  console.error('usage: run.js [concurrent calls ...]  e.g. run.js 100 200');
  process.exit(2);
}
if (rounds.length === 0) rounds.push(100, 200);
const replicaCounts = (process.env.BENCH_REPLICAS ?? '1')
  .split(/[\s,]+/)
  .filter(Boolean)
  .map(Number);
if (replicaCounts.length === 0 || replicaCounts.some((n) => !Number.isInteger(n) || n <= 0)) {
  console.error('BENCH_REPLICAS: replica counts, e.g. "1 2"');
  process.exit(2);
}
const transportMode = (process.env.BENCH_TRANSPORT || 'phone') as BenchTransport | 'mixed';
if (!['phone', 'browser', 'mixed'].includes(transportMode)) {
  console.error('BENCH_TRANSPORT: phone, browser or mixed');
  process.exit(2);
}
const turns = Number(process.env.BENCH_TURNS ?? 2);
const ttsSeconds = Number(process.env.BENCH_TTS_SECONDS ?? 2);
const intro = process.env.BENCH_INTRO ?? 'Hello, this is the benchmark agent.';
const rampMs = Number(process.env.BENCH_RAMP_MS ?? 2000);
/** Calls of the unreported first round: a fresh process runs its first calls before V8 has compiled the hot paths. */
const warmupCalls = Number(process.env.BENCH_WARMUP_CALLS ?? 20);
const showLogs = process.env.BENCH_LOGS === '1';
const cpuProfileDir = process.env.BENCH_CPU_PROF;
/** Extra Node/V8 flags for the voice processes (e.g. "--trace-gc"), to try a tuning without a rebuild. */
const voiceNodeArgs = (process.env.BENCH_VOICE_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
const heapProfileDir = process.env.BENCH_HEAP_PROF ? resolve(process.env.BENCH_HEAP_PROF) : undefined;
/** Read before this process is pinned (the count then follows its affinity). */
const cores = availableParallelism();
const pin = pinningWanted(cores);
/** The voice build each round runs on: a baseline checkout's first when one is given, then this one's. */
const builds = [
  ...(process.env.BENCH_BASELINE_ROOT
    ? [{ label: 'baseline', root: resolve(process.env.BENCH_BASELINE_ROOT) }]
    : []),
  { label: 'this build', root: workspaceRoot() },
];
const TRANSCRIPT = 'I would like to know my order status.';
const REPLY = 'Your order ships tomorrow morning.';

interface RoundRun {
  replicas: number;
  /** Which voice build served the round (see BENCH_BASELINE_ROOT). */
  build: string;
  /** What the voice process(es) allocated and collected over the round. */
  memory: RoundMemory;
  /** What the report covers: the round's calls of one transport, or all of a mixed round's. */
  transport: BenchTransport | 'mixed';
  report: RoundReport;
  /** A mixed round's share of each transport. */
  shares: { transport: BenchTransport; report: RoundReport }[];
  /** The caller fleet's event-loop delay p99 (ms): high values mean the load generator itself lagged. */
  benchLoopDelayP99Ms: number;
  benchClockStalls: number;
}

async function main(): Promise<void> {
  // The fakes in this process and the callers' process (forked after, and pinned again below) on the first core.
  if (pin) pinToCore(0, process.pid);
  if (heapProfileDir) mkdirSync(heapProfileDir, { recursive: true });
  const infra = await openBenchNats();
  const cleanups: (() => Promise<unknown>)[] = [() => infra.close()];
  try {
    const nc = await connect({ servers: infra.nats.url, name: 'bench-voice-calls' });
    cleanups.unshift(() => nc.drain());
    const responder = await startFakePlatformResponder(nc, infra.prefix, benchSpeechPlan);
    cleanups.unshift(() => responder.close());
    const providers = await startFakeSpeechProviders({
      transcript: TRANSCRIPT,
      reply: REPLY,
      speechSeconds: ttsSeconds,
    });
    cleanups.unshift(() => providers.close());

    // The key the calls service would derive from its SECRETS_KEY: all voice holds.
    const tokenKey = randomBytes(32);
    const fleet = CallerFleet.start();
    cleanups.unshift(() => fleet.close());
    if (pin && fleet.pid !== undefined) pinToCore(0, fleet.pid);
    const env = benchVoiceEnv(infra, providers, tokenKey, Math.max(...rounds, warmupCalls));

    const what = {
      phone: 'carrier_b calls',
      browser: 'browser sessions',
      mixed: 'streams (half carrier_b calls, half browser sessions)',
    }[transportMode];
    console.log(
      `voice benchmark: rounds of ${rounds.join(', ')} concurrent ${what} on ${replicaCounts.join(' then ')} ` +
        `voice replica(s), ${turns} caller turn(s) each, ${intro ? 'a short intro' : 'no intro'}, ${ttsSeconds} s of ` +
        `speech per synthesis, zero-latency fake providers, Node ${process.version}, ${cores} cores, load average ` +
        `${loadavg()[0].toFixed(2)}; ${pin ? `voice pinned to core ${cores - 1}, callers and fakes to core 0 (taskset)` : 'unpinned'}` +
        (builds.length > 1
          ? `; every round on the baseline build (${builds[0].root}) and then on this one`
          : ''),
    );
    const runs: RoundRun[] = [];
    for (const replicas of replicaCounts)
      for (const build of builds) {
        const started: ServiceHandle[] = [];
        const probes: GcProbe[] = [];
        try {
          for (let i = 0; i < replicas; i++) {
            const port = await freePort();
            const inspectPort = await freePort();
            const voice = await startService('voice', {
              port,
              label: `voice-${i + 1}`,
              rootDir: build.root,
              env: { ...env, MEDIA_PUBLIC_URL: `http://127.0.0.1:${port}` },
              logFile: join(workspaceRoot(), '.data', 'logs', `bench-voice-${i + 1}.log`),
              prefixLogs: showLogs,
              nodeArgs: [
                `--inspect=127.0.0.1:${inspectPort}`,
                ...voiceNodeArgs,
                ...(cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfileDir}`] : []),
              ],
              readyTimeoutMs: 60_000,
            });
            started.push(voice);
            if (pin) for (const pid of processTree(voice.pid)) pinToCore(cores - 1, pid);
            probes.push(await GcProbe.connect(inspectPort, heapProfileDir));
          }
          const rssBaselineBytes = started.reduce((sum, v) => sum + readProcessUsage(v.pid).rssBytes, 0);
          const deps = {
            services: started,
            probes,
            build: build.label,
            responder,
            fleet,
            tokenKey,
            rssBaselineBytes,
          };
          if (warmupCalls > 0) {
            const warmup = await runRound(warmupCalls, deps);
            console.log(
              `warm-up round of ${warmupCalls} calls on ${replicas} replica(s) (not reported): ` +
                `${warmup.report.failed} failed`,
            );
          }
          for (const calls of rounds) runs.push(await runRound(calls, deps));
        } catch (err) {
          for (const voice of started) {
            console.error(
              `voice replica (pid ${voice.pid}) last output:\n  ${voice.recentOutput(30).join('\n  ')}`,
            );
          }
          throw err;
        } finally {
          for (const probe of probes) probe.close();
          await Promise.all(started.map((v) => v.stop().catch(() => undefined)));
        }
      }
    printReport(runs, providers.counts);
    const broken = runs.filter((r) => r.report.failed > 0 || r.report.endedReports < r.report.calls);
    if (broken.length) {
      throw new Error(
        broken
          .map(
            (r) =>
              `${r.report.calls} calls: ${r.report.failed} failed, ${r.report.endedReports} ended reports`,
          )
          .join('; '),
      );
    }
  } finally {
    for (const cleanup of cleanups) await cleanup().catch(() => undefined);
  }
}

interface RoundDeps {
  services: ServiceHandle[];
  /** One per service, in the same order. */
  probes: GcProbe[];
  build: string;
  responder: FakePlatformResponder;
  fleet: CallerFleet;
  tokenKey: Buffer;
  rssBaselineBytes: number;
}

async function runRound(calls: number, deps: RoundDeps): Promise<RoundRun> {
  const { services, responder, fleet } = deps;
  responder.resetReports();
  const agent = benchAgentSettings(intro || null);
  // Round robin over the replicas, as a load balancer spreads new streams.
  const placed = Array.from({ length: calls }, (_, i) =>
    benchCall(
      i,
      agent,
      `http://127.0.0.1:${services[i % services.length].port}`,
      deps.tokenKey,
      transportOf(i, transportMode),
    ),
  );
  for (const call of placed) responder.register(call.context);
  const sampler = new ProcessSampler(services.map((v) => v.pid));
  const live = services.map((v) => new LiveSessionsWatcher(`${v.url}/metrics`));
  const metricsUrls = services.map((v) => `${v.url}/metrics`);
  const sendBefore = await scrapeSendPacing(metricsUrls);
  await Promise.all(deps.probes.map((probe) => probe.start()));
  sampler.start();
  for (const watcher of live) watcher.start();
  // The streams open spread over rampMs, as a carrier's arrivals would be, not all in the same tick.
  const fleetRound = await fleet.run({
    calls: placed.map((call) =>
      call.transport === 'browser'
        ? {
            url: call.streamUrl,
            callId: call.context.callId,
            protocol: 'browser',
            origin: BENCH_BROWSER_ORIGIN,
          }
        : { url: call.streamUrl, callId: call.context.callId },
    ),
    rampMs,
    turns,
    expectIntro: Boolean(intro),
    // Every answer is one synthesis of ttsSeconds (less a margin for resampling at its edges).
    minAnswerFrames: Math.floor(((ttsSeconds * 1000) / FRAME_MS) * 0.9),
  });
  const { results } = fleetRound;
  const usage = sampler.stop();
  for (const watcher of live) watcher.stop();
  // The service reports ended once it has closed each stream; give the last ones a moment.
  const deadline = performance.now() + 10_000;
  while (responder.ended.size < calls && performance.now() < deadline) await sleep(100);
  const profileName = (i: number) => `${deps.build.replace(/\W+/g, '-')}-${calls}-calls-voice-${i + 1}`;
  const gc = await Promise.all(deps.probes.map((probe, i) => probe.stop(profileName(i))));
  await Promise.all(live.map((watcher) => watcher.scrape()));
  const send = sendPacingBetween(sendBefore, await scrapeSendPacing(metricsUrls));
  for (const call of placed) responder.forget(call.context.callId);
  const input: RoundInput = {
    calls,
    results,
    turns: responder.turns.map((t) => t.latency),
    endedReports: placed.filter((c) => responder.ended.has(c.context.callId)).length,
    usage,
    rssBaselineBytes: deps.rssBaselineBytes,
    send,
    // Every call overlaps every other, so the replicas' peaks add up to the peak of the whole.
    liveSessionsPeak: live.some((w) => w.misses > 0 && w.peak === 0)
      ? undefined
      : live.reduce((sum, w) => sum + w.peak, 0),
  };
  const report = summariseRound(input);
  const shares =
    transportMode === 'mixed'
      ? (['phone', 'browser'] as const).map((transport) => {
          const ids = new Set(placed.filter((c) => c.transport === transport).map((c) => c.context.callId));
          const share = summariseShare(
            {
              ...input,
              calls: ids.size,
              results: results.filter((r) => ids.has(r.callId)),
              turns: responder.turns.filter((t) => ids.has(t.callId)).map((t) => t.latency),
              endedReports: [...ids].filter((id) => responder.ended.has(id)).length,
              liveSessionsPeak: undefined,
            },
            report,
          );
          return { transport, report: share };
        })
      : [];
  const callSeconds = placed.reduce(
    (sum, c) => sum + (responder.ended.get(c.context.callId)?.mediaSeconds ?? 0),
    0,
  );
  const memory = roundMemory(
    gc.map((g) => g.window),
    callSeconds,
  );
  const sites = gc.flatMap((g) => g.sites ?? []);
  if (sites.length) printAllocationSites(`${deps.build}, ${calls} calls`, sites, memory.heapAllocatedBytes);
  const errors = [...new Set(results.flatMap((r) => (r.error ? [r.error] : [])))];
  if (errors.length) console.log(`round of ${calls}: call errors: ${errors.slice(0, 5).join('; ')}`);
  return {
    replicas: services.length,
    build: deps.build,
    memory,
    transport: transportMode,
    report,
    shares,
    benchLoopDelayP99Ms: fleetRound.loopDelayP99Ms,
    benchClockStalls: fleetRound.clockStalls,
  };
}

/** A report's row: a round, or one transport's share of a mixed round. */
interface ReportRow {
  replicas: number;
  build: string;
  transport: string;
  report: RoundReport;
  benchLoopDelayP99Ms: number;
  benchClockStalls: number;
}

function reportRows(runs: RoundRun[]): ReportRow[] {
  return runs.flatMap((run) => [
    { ...run, transport: run.transport },
    ...run.shares.map((share) => ({
      ...run,
      transport: `${share.transport} (of mixed)`,
      report: share.report,
    })),
  ]);
}

/** The name a row's figures go under: phone rounds keep the name earlier results have. */
function benchName(row: ReportRow): string {
  const r = row.report;
  const replicas = `${row.replicas} replica(s)${row.build === 'baseline' ? ', baseline build' : ''}`;
  if (r.roundCalls)
    return `voice mixed, ${row.transport.split(' ')[0]} half (${r.calls} of ${r.roundCalls} streams, ${replicas})`;
  if (row.transport === 'browser') return `voice browser (${r.calls} sessions, ${replicas})`;
  if (row.transport === 'mixed') return `voice mixed (${r.calls} streams, ${replicas})`;
  return `voice (${r.calls} calls, ${replicas})`;
}

function printReport(runs: RoundRun[], counts: FakeSpeechProviderCounts): void {
  const rows = reportRows(runs);
  const comparing = builds.length > 1;
  console.table(
    rows.map(({ replicas, build, transport, report: r }) => ({
      ...(comparing ? { build } : {}),
      replicas,
      transport,
      calls: r.calls,
      'live peak': r.liveSessionsPeak ?? '-',
      failed: r.failed,
      'frames/call': figure(r.framesPerCall.mean, 0),
      'jitter p50 ms': figure(r.jitterP50Ms, 2),
      'jitter p99 ms': figure(r.jitterP99Ms, 2),
      underruns: r.underruns,
      'sent late p50 ms': r.send ? `<= ${r.send.latenessP50Ms}` : '-',
      'sent late p99 ms': r.send ? `<= ${r.send.latenessP99Ms}` : '-',
      'sent underruns': r.send?.underruns ?? '-',
      'own/turn p50 ms': figure(r.ownTimeP50Ms),
      'own/turn p99 ms': figure(r.ownTimeP99Ms),
      'CPU s/call': figure(r.cpuSecondsPerCall, 3),
      'RSS MB/call': figure(r.rssPerCallMb, 2),
    })),
  );
  console.table(
    rows.map(({ replicas, build, transport, report: r, benchLoopDelayP99Ms, benchClockStalls }) => ({
      ...(comparing ? { build } : {}),
      replicas,
      transport,
      calls: r.calls,
      'turns reported': r.reportedTurns,
      unanswered: r.unanswered,
      utterances: r.utterances,
      'min frames/call': r.framesPerCall.min,
      // llm, tts, frame, in the stages' order.
      'own split p50/p99 ms': Object.values(r.ownSplit)
        .map((stage) => stage.join('/'))
        .join(' '),
      'v2v p50 ms': figure(r.voiceToVoiceP50Ms),
      'v2v p99 ms': figure(r.voiceToVoiceP99Ms),
      'heard reply p50 ms': figure(r.replyHeardP50Ms),
      'heard reply p99 ms': figure(r.replyHeardP99Ms),
      'voice CPU %': figure(r.cpuPercent, 0),
      'RSS peak MB': figure(r.rssPeakMb, 0),
      'ended reports': r.endedReports,
      'callers loop p99 ms': figure(benchLoopDelayP99Ms),
      'callers clock stalls': benchClockStalls,
    })),
  );
  console.log(
    'own/turn = first_frame_out_ms - stt_final_ms (final transcript to first answer frame out), split into ' +
      'final transcript -> LLM first token, -> TTS first byte, -> first frame out; jitter = ' +
      '|arrival gap - 20 ms| inside agent utterances, as the callers received them; sent late = how late the voice ' +
      "service's clock sent each frame against its slot (its /metrics histogram: bucket upper bounds), sent " +
      'underruns = its ticks that found the answer not ready; heard reply includes the endpointing silence (250 ms ' +
      'after a finished sentence in the balanced mode).',
  );
  console.table(
    runs.map(({ replicas, build, transport, report: r, memory: m }) => ({
      ...(comparing ? { build } : {}),
      replicas,
      transport,
      calls: r.calls,
      'call s': figure(m.callSeconds, 0),
      'heap KB/call-s': figure(m.heapBytesPerCallSecond / 1024, 1),
      'external KB/call-s': figure(m.externalBytesPerCallSecond / 1024, 1),
      'heap MB/s': figure(m.heapMbPerSecond, 1),
      'scavenge every ms': m.scavengeIntervalMs === undefined ? '-' : figure(m.scavengeIntervalMs, 0),
      'max scavenge ms': figure(m.maxScavengeMs, 2),
      'mark-compacts': m.markCompacts,
      'max mark-compact ms': m.markCompacts ? figure(m.maxMarkCompactMs, 2) : '-',
      'GC pause %': figure(m.gcPausePercent, 2),
    })),
  );
  console.log(
    "heap = bytes the voice process(es) allocated on V8's heap (objects, strings), external = Buffer contents " +
      'allocated outside it, both per second of call media (the ended reports); scavenge every = wall time between ' +
      'young-generation collections of one process; pauses as V8 timed them (v8.GCProfiler over the inspector).',
  );
  if (comparing) printComparison(runs);
  console.log(`fake provider requests: ${JSON.stringify(counts)}`);
  // Arrival times are taken on the callers' event loop: when it lagged, the pacing figures include its lag.
  const lagging = runs.filter((r) => r.benchLoopDelayP99Ms > 5 || r.benchClockStalls > 0);
  for (const r of lagging) {
    console.log(
      `warning: ${r.report.calls} calls on ${r.replicas} replica(s): the load generator itself lagged (event loop p99 ` +
        `${r.benchLoopDelayP99Ms.toFixed(1)} ms, ${r.benchClockStalls} clock stalls); jitter and underruns are upper bounds`,
    );
  }
  for (const row of rows) {
    for (const verdict of targetVerdicts(row.report))
      console.log(`target (${row.transport}, ${row.replicas} replica(s)): ${verdict}`);
  }
  reportFigures([
    ...rows.map((row) => roundFigures(row.report, benchName(row))).flat(),
    ...runs.map((run) => ({
      bench: benchName(run),
      figure: 'heap allocated per call-second (voice service)',
      value: Math.round(run.memory.heapBytesPerCallSecond / 1024),
      unit: 'KB',
    })),
  ]);
}

/** Each round of this build against the same round of the baseline: this build's figure over the baseline's. */
function printComparison(runs: RoundRun[]): void {
  const baseline = runs.filter((r) => r.build === 'baseline');
  const rows = runs.flatMap((run) => {
    const before = baseline.find((b) => b.replicas === run.replicas && b.report.calls === run.report.calls);
    if (run.build === 'baseline' || !before) return [];
    const ratios = memoryRatios(before.memory, run.memory);
    const ratio = (value: number | undefined) => (value === undefined ? '-' : figure(value, 2));
    return [
      {
        replicas: run.replicas,
        calls: run.report.calls,
        'heap B/call-s': ratio(ratios.heapBytesPerCallSecond),
        'external B/call-s': ratio(ratios.externalBytesPerCallSecond),
        'scavenge interval': ratio(ratios.scavengeInterval),
        'max scavenge': ratio(ratios.maxScavenge),
        'max mark-compact': ratio(ratios.maxMarkCompact),
        'GC pause %': ratio(ratios.gcPause),
        'jitter p99': ratio(run.report.jitterP99Ms / before.report.jitterP99Ms),
        'CPU s/call': ratio(run.report.cpuSecondsPerCall / before.report.cpuSecondsPerCall),
      },
    ];
  });
  console.log(
    'this build over the baseline, round by round (below 1: less; the scavenge interval above 1: rarer):',
  );
  console.table(rows);
}

/** The largest allocation sites of a round's sampling heap profile, with their share of what it allocated. */
function printAllocationSites(round: string, sites: AllocationSite[], heapAllocatedBytes: number): void {
  const merged = new Map<string, number>();
  for (const { site, bytes } of sites) merged.set(site, (merged.get(site) ?? 0) + bytes);
  const sampled = [...merged.values()].reduce((sum, bytes) => sum + bytes, 0);
  console.log(
    `allocation sites, ${round} (sampled ${(sampled / MB).toFixed(0)} MB of ${(heapAllocatedBytes / MB).toFixed(0)} MB ` +
      `on the heap; profiles in ${heapProfileDir}):`,
  );
  console.table(
    [...merged.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 25)
      .map(([site, bytes]) => ({ site, MB: figure(bytes / MB, 1), '%': figure((100 * bytes) / sampled, 1) })),
  );
}

const MB = 1024 * 1024;

main().catch((err) => {
  console.error(`bench failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
