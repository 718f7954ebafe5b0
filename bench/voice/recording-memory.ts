/**
 * Recording memory benchmark: does a voice process's memory per call grow with the call's length? Rounds of
 * BENCH_CALLS recorded carrier_b calls of 1 and of 30 minutes of media (by default), each round on a fresh voice
 * service, with the media clock running BENCH_MEDIA_TIME_SCALE times faster than real time (the service's
 * MEDIA_TIME_SCALE, and the simulated carrier sends that many 20 ms frames a tick), so a 30-minute call takes
 * 3 minutes at 10x.
 *
 * Same set-up as run.ts (NATS under a prefix of its own, fake speech providers and fake calls/agents services,
 * the callers in a process of their own), with the agent recording to the local blob driver in a temporary
 * directory. Each caller takes BENCH_TURNS turns and then stays on the line, silent, until the stream has carried
 * the call's length. Every 2 s of the round, and before it, the voice process runs a full garbage collection
 * (asked for over its inspector) and its resident memory is read: the round's figure is the largest of those
 * readings less the one before the round, per call, so it is what live calls keep, not how much garbage V8 let pile
 * up (the service lets its old generation grow to 4x what is live). The plain RSS peak is printed beside it.
 * Checked, and the run fails without it: every call's recording stored, a WAV as long as the call.
 *
 * Target: RSS per call of the longest and the shortest calls differ by less than 1 MB.
 *
 * Usage: node dist/bench/bench/voice/recording-memory.js [minutes ...]   (default: 1 30)
 * Settings: BENCH_CALLS (10), BENCH_MEDIA_TIME_SCALE (10), BENCH_TURNS (2), BENCH_WARMUP_CALLS (the round's calls,
 * 10 s each, unreported; 0 for none), BENCH_LOGS=1 prints the voice service's output.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'nats';
import { FRAME_MS } from '@vap/media';
import { freePort, ServiceHandle, sleep, startService, workspaceRoot } from '@vap/testing';
import { openBenchNats } from '../support/bench-nats';
import { BenchFigure, meetsTarget, reportFigures } from '../support/figures';
import { figure } from '../support/percentiles';
import { benchAgentSettings, benchCall, benchSpeechPlan } from './bench-call';
import { CallerFleet } from './caller-fleet';
import { FakePlatformResponder, startFakePlatformResponder } from './fake-platform-responder';
import { startFakeSpeechProviders } from './fake-speech-providers';
import { InspectorSession } from './inspector-session';
import { ProcessSampler, readProcessUsage } from './process-sampler';
import { benchVoiceEnv } from './voice-env';

const lengths = process.argv.slice(2).map(Number);
if (lengths.some((n) => !Number.isFinite(n) || n <= 0)) {
  console.error('usage: recording-memory.js [call minutes ...]  e.g. recording-memory.js 1 30');
  process.exit(2);
}
if (lengths.length === 0) lengths.push(1, 30);
const calls = Number(process.env.BENCH_CALLS ?? 10);
const timeScale = Number(process.env.BENCH_MEDIA_TIME_SCALE ?? 10);
const turns = Number(process.env.BENCH_TURNS ?? 2);
const warmupCalls = Number(process.env.BENCH_WARMUP_CALLS ?? calls);
const showLogs = process.env.BENCH_LOGS === '1';
if (!Number.isInteger(calls) || calls <= 0 || !Number.isInteger(timeScale) || timeScale < 1) {
  console.error('BENCH_CALLS and BENCH_MEDIA_TIME_SCALE must be positive integers');
  process.exit(2);
}
const TTS_SECONDS = 2;
const WARMUP_SECONDS = 10;
/** Wall ms between the voice process's forced collections (and memory readings) during a round. */
const SAMPLE_EVERY_MS = 2000;
/** The target: RSS per call of the longest calls within this of the shortest's. */
const TARGET_SPREAD_MB = 1;
const MB = 1024 * 1024;

interface RoundResult {
  minutes: number;
  wallSeconds: number;
  baselineMb: number;
  /** Largest post-collection RSS during the round, less the baseline, per call. */
  rssPerCallMb: number;
  /** Plain RSS peak (garbage included), less the baseline, per call. */
  rawPeakPerCallMb: number;
  recordings: number;
  recordedMinutes: number;
}

interface Deps {
  env: Record<string, string>;
  responder: FakePlatformResponder;
  fleet: CallerFleet;
  tokenKey: Buffer;
  blobDir: string;
}

async function main(): Promise<void> {
  const infra = await openBenchNats();
  const cleanups: (() => Promise<unknown>)[] = [() => infra.close()];
  try {
    const nc = await connect({ servers: infra.nats.url, name: 'bench-voice-recording' });
    cleanups.unshift(() => nc.drain());
    const responder = await startFakePlatformResponder(nc, infra.prefix, benchSpeechPlan);
    cleanups.unshift(() => responder.close());
    const providers = await startFakeSpeechProviders({
      transcript: 'I would like to know my order status.',
      reply: 'Your order ships tomorrow morning.',
      speechSeconds: TTS_SECONDS,
    });
    cleanups.unshift(() => providers.close());
    const fleet = CallerFleet.start();
    cleanups.unshift(() => fleet.close());
    const blobDir = await mkdtemp(join(tmpdir(), 'bench-recordings-'));
    cleanups.unshift(() => rm(blobDir, { recursive: true, force: true }));
    // The key the calls service would derive from its SECRETS_KEY: all voice holds.
    const tokenKey = randomBytes(32);
    const deps: Deps = {
      env: {
        ...benchVoiceEnv(infra, providers, tokenKey, calls),
        MEDIA_TIME_SCALE: String(timeScale),
        BLOB_STORAGE_DRIVER: 'local',
        BLOB_STORAGE_DIR: blobDir,
      },
      responder,
      fleet,
      tokenKey,
      blobDir,
    };

    console.log(
      `recording memory benchmark: rounds of ${calls} recorded carrier_b calls of ${lengths.join(', ')} minute(s), ` +
        `media clock ${timeScale}x, ${turns} caller turn(s) then silence, a fresh voice process per round, ` +
        `Node ${process.version}`,
    );
    const results: RoundResult[] = [];
    for (const minutes of lengths) results.push(await runRound(minutes, deps));
    printReport(results);
  } finally {
    for (const cleanup of cleanups) await cleanup().catch(() => undefined);
  }
}

async function runRound(minutes: number, deps: Deps): Promise<RoundResult> {
  const port = await freePort();
  const inspectPort = await freePort();
  const voice = await startService('voice', {
    port,
    label: 'voice',
    env: { ...deps.env, MEDIA_PUBLIC_URL: `http://127.0.0.1:${port}` },
    logFile: join(workspaceRoot(), '.data', 'logs', 'bench-voice-recording.log'),
    prefixLogs: showLogs,
    nodeArgs: [`--inspect=127.0.0.1:${inspectPort}`],
    readyTimeoutMs: 60_000,
  });
  const gc = await InspectorSession.connect(inspectPort);
  const sampler = new ProcessSampler([voice.pid]);
  let sampling = false;
  let readings: Promise<void> = Promise.resolve();
  try {
    if (warmupCalls > 0) await placeCalls(voice, deps, warmupCalls, WARMUP_SECONDS / 60);
    const baseline = await collectedRss(voice, gc);
    let largest = baseline;
    sampling = true;
    readings = (async () => {
      while (sampling) {
        await sleep(SAMPLE_EVERY_MS);
        if (sampling) largest = Math.max(largest, await collectedRss(voice, gc));
      }
    })();
    sampler.start();
    const started = performance.now();
    const recorded = await placeCalls(voice, deps, calls, minutes);
    const wallSeconds = (performance.now() - started) / 1000;
    sampling = false;
    await readings;
    const usage = sampler.stop();
    return {
      minutes,
      wallSeconds,
      baselineMb: baseline / MB,
      rssPerCallMb: (largest - baseline) / calls / MB,
      rawPeakPerCallMb: (usage.rssPeakBytes - baseline) / calls / MB,
      recordings: recorded.length,
      recordedMinutes: recorded.reduce((sum, s) => sum + s, 0) / 60 / recorded.length,
    };
  } catch (err) {
    console.error(`voice (pid ${voice.pid}) last output:\n  ${voice.recentOutput(30).join('\n  ')}`);
    throw err;
  } finally {
    // Before the process goes: both read its /proc entry.
    if (sampling) {
      sampling = false;
      sampler.stop();
      await readings.catch(() => undefined);
    }
    gc.close();
    await voice.stop().catch(() => undefined);
  }
}

/** RSS of the voice process right after a full collection. */
async function collectedRss(voice: ServiceHandle, gc: InspectorSession): Promise<number> {
  await gc.collectGarbage();
  return readProcessUsage(voice.pid).rssBytes;
}

/**
 * Places `count` recorded calls of `minutes` at once and waits for them to end; checks that each stored its
 * recording (a WAV as long as the call), deletes them, and answers their lengths in seconds.
 */
async function placeCalls(
  voice: ServiceHandle,
  deps: Deps,
  count: number,
  minutes: number,
): Promise<number[]> {
  const { responder, fleet } = deps;
  responder.resetReports();
  const agent = { ...benchAgentSettings('Hello, this is the benchmark agent.'), enableRecording: true };
  const placed = Array.from({ length: count }, (_, i) =>
    benchCall(i, agent, `http://127.0.0.1:${voice.port}`, deps.tokenKey),
  );
  for (const call of placed) responder.register(call.context);
  const { results } = await fleet.run({
    calls: placed.map((call) => ({ url: call.streamUrl, callId: call.context.callId })),
    rampMs: 1000,
    turns,
    expectIntro: true,
    minAnswerFrames: Math.floor(((TTS_SECONDS * 1000) / FRAME_MS) * 0.9),
    framesPerTick: timeScale,
    mediaSeconds: minutes * 60,
  });
  const failed = results.filter((r) => r.error);
  if (failed.length) throw new Error(`${failed.length} call(s) failed: ${failed[0].error}`);
  const deadline = performance.now() + 30_000;
  while (responder.ended.size < count && performance.now() < deadline) await sleep(100);
  const seconds: number[] = [];
  for (const call of placed) {
    const recording = responder.ended.get(call.context.callId)?.recording;
    if (!recording) throw new Error(`call ${call.context.callId} reported no recording`);
    const file = join(deps.blobDir, 'objects', recording.storageKey);
    const { size } = await stat(file);
    if (
      size !== 44 + Math.round(recording.durationSeconds * 8000) * 4 ||
      recording.durationSeconds < minutes * 60
    ) {
      throw new Error(
        `call ${call.context.callId}: a ${size}-byte recording of ${recording.durationSeconds} s`,
      );
    }
    seconds.push(recording.durationSeconds);
    await rm(file);
    responder.forget(call.context.callId);
  }
  return seconds;
}

function printReport(results: RoundResult[]): void {
  console.table(
    results.map((r) => ({
      'call minutes': r.minutes,
      calls,
      'wall s': figure(r.wallSeconds, 0),
      'recordings stored': r.recordings,
      'recorded min/call': figure(r.recordedMinutes, 2),
      'baseline RSS MB': figure(r.baselineMb, 0),
      'RSS MB/call (live)': figure(r.rssPerCallMb, 2),
      'RSS MB/call (raw peak)': figure(r.rawPeakPerCallMb, 2),
    })),
  );
  console.log(
    'RSS MB/call (live) = (largest RSS read right after a forced full collection during the round - the same ' +
      'before it) / calls; raw peak = the plain RSS peak less that baseline, per call (garbage included).',
  );
  const shortest = results.reduce((a, b) => (b.minutes < a.minutes ? b : a));
  const longest = results.reduce((a, b) => (b.minutes > a.minutes ? b : a));
  if (shortest === longest) return;
  const spread: BenchFigure = {
    bench: `voice recording (${calls} calls, ${shortest.minutes} vs ${longest.minutes} min)`,
    figure: 'RSS per call, longest vs shortest calls (difference)',
    value: Number(Math.abs(longest.rssPerCallMb - shortest.rssPerCallMb).toFixed(3)),
    unit: 'MB',
    target: { op: '<', value: TARGET_SPREAD_MB },
  };
  console.log(
    `target: RSS per call, ${longest.minutes}-minute vs ${shortest.minutes}-minute calls, differs by ` +
      `${spread.value} MB (target < ${TARGET_SPREAD_MB} MB) ${meetsTarget(spread) ? 'met' : 'MISSED'}`,
  );
  reportFigures([spread]);
}

main().catch((err) => {
  console.error(`bench failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
