/**
 * Voice media-plane benchmark: N simulated carrier_b calls at once against the built voice service, with
 * providers that answer at once, so every millisecond measured is the platform's own.
 *
 * Starts NATS (as `npm start` finds it) under a subject prefix of its own, fake OpenAI-compatible STT, chat and
 * TTS servers in this process, fake calls and agents services on NATS (attach answers each call's context, the
 * reports are acked and the agent turns' latency parts kept, the voice catalog holds the agent's voice), then
 * the voice service itself. Each
 * round opens N media streams (ramped over BENCH_RAMP_MS) that stream caller audio in real time: per turn a
 * second of loud speech-like audio, then silence until the agent has answered and gone quiet.
 *
 * Reports per round: the peak of the service's voice_live_sessions gauge; frames received per call; pacing
 * jitter |arrival gap - 20 ms| of the agent's frames inside its utterances (p50/p99); underruns (a gap over 40 ms
 * or filler silence inside an utterance); the platform's own time per turn, first_frame_out_ms - stt_final_ms
 * from the reported latency parts (p50/p99); CPU seconds per call and RSS growth per call of the voice process
 * (from /proc). Rounds run one after another on the same voice process.
 *
 * Usage: node dist/bench/bench/voice/run.js [N ...]   (default: 100 200)
 * Settings: BENCH_TURNS (2), BENCH_TTS_SECONDS (2, speech per synthesis), BENCH_INTRO (a short greeting;
 * empty for none), BENCH_RAMP_MS (2000), BENCH_LOGS=1 prints the voice service's output.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { connect } from 'nats';
import { FRAME_MS } from '@vap/media';
import { mediaStreamTokenKey } from '@vap/secrets';
import { freePort, ServiceHandle, sleep, startService, workspaceRoot } from '@vap/testing';
import { openBenchNats } from '../support/bench-nats';
import { figure } from '../support/percentiles';
import { BENCH_VOICE, benchAgentSettings, benchCall } from './bench-call';
import { CarrierClock } from './carrier-clock';
import { FakePlatformResponder, startFakePlatformResponder } from './fake-platform-responder';
import { FakeSpeechProviderCounts, startFakeSpeechProviders } from './fake-speech-providers';
import { LiveSessionsWatcher } from './live-sessions';
import { ProcessSampler, readProcessUsage } from './process-sampler';
import { RoundReport, summariseRound, targetVerdicts } from './round-report';
import { runSimulatedCall } from './simulated-caller';
import { callerAudio } from './speech-like-audio';

const rounds = process.argv.slice(2).map(Number);
if (rounds.some((n) => !Number.isInteger(n) || n <= 0)) {
  console.error('usage: run.js [concurrent calls ...]  e.g. run.js 100 200');
  process.exit(2);
}
if (rounds.length === 0) rounds.push(100, 200);
const turns = Number(process.env.BENCH_TURNS ?? 2);
const ttsSeconds = Number(process.env.BENCH_TTS_SECONDS ?? 2);
const intro = process.env.BENCH_INTRO ?? 'Hello, this is the benchmark agent.';
const rampMs = Number(process.env.BENCH_RAMP_MS ?? 2000);
const showLogs = process.env.BENCH_LOGS === '1';
const TRANSCRIPT = 'I would like to know my order status.';
const REPLY = 'Your order ships tomorrow morning.';

interface RoundRun {
  report: RoundReport;
  /** This process's event-loop delay p99 (ms): high values mean the load generator itself lagged. */
  benchLoopDelayP99Ms: number;
  benchClockStalls: number;
}

async function main(): Promise<void> {
  const infra = await openBenchNats();
  const cleanups: (() => Promise<unknown>)[] = [() => infra.close()];
  let voice: ServiceHandle | undefined;
  try {
    const nc = await connect({ servers: infra.nats.url, name: 'bench-voice-calls' });
    cleanups.unshift(() => nc.drain());
    const responder = await startFakePlatformResponder(nc, infra.prefix, [BENCH_VOICE]);
    cleanups.unshift(() => responder.close());
    const providers = await startFakeSpeechProviders({
      transcript: TRANSCRIPT,
      reply: REPLY,
      speechSeconds: ttsSeconds,
    });
    cleanups.unshift(() => providers.close());

    const secretsKey = randomBytes(32).toString('hex');
    const port = await freePort();
    const publicUrl = `http://127.0.0.1:${port}`;
    voice = await startService('voice', {
      port,
      env: {
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        NATS_URL: infra.nats.url,
        NATS_SUBJECT_PREFIX: infra.prefix,
        SECRETS_KEY: secretsKey,
        MEDIA_PUBLIC_URL: publicUrl,
        MEDIA_TIME_SCALE: '1',
        STT_PROVIDER: 'openai',
        // The speech providers append /v1/audio/..., the chat model appends /chat/completions.
        STT_BASE_URL: providers.rootUrl,
        STT_API_KEY: 'bench',
        STT_MODEL: 'whisper-1',
        TTS_PROVIDER: 'openai',
        TTS_BASE_URL: providers.rootUrl,
        TTS_API_KEY: 'bench',
        TTS_MODEL: 'tts-1',
        LLM_BASE_URL: providers.baseUrl,
        LLM_API_KEY: 'bench',
        LLM_MODEL: 'bench-chat',
        // The fakes listen on 127.0.0.1.
        PROVIDER_ALLOW_PRIVATE_NETWORKS: 'true',
      },
      logFile: join(workspaceRoot(), '.data', 'logs', 'bench-voice.log'),
      prefixLogs: showLogs,
      readyTimeoutMs: 60_000,
    });
    const service = voice;
    const tokenKey = mediaStreamTokenKey(Buffer.from(secretsKey, 'hex'));
    const clock = new CarrierClock();
    clock.start();
    cleanups.unshift(async () => clock.stop());

    console.log(
      `voice benchmark: rounds of ${rounds.join(', ')} concurrent carrier_b calls, ${turns} caller turn(s) each, ` +
        `${intro ? 'a short intro' : 'no intro'}, ${ttsSeconds} s of speech per synthesis, zero-latency fake ` +
        `providers, Node ${process.version}, voice pid ${service.pid}`,
    );
    const rssBaselineBytes = readProcessUsage(service.pid).rssBytes;
    const runs: RoundRun[] = [];
    for (const calls of rounds) {
      runs.push(await runRound(calls, { service, responder, clock, publicUrl, tokenKey, rssBaselineBytes }));
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
  } catch (err) {
    if (voice) console.error(`voice service's last output:\n  ${voice.recentOutput(30).join('\n  ')}`);
    throw err;
  } finally {
    if (voice) await voice.stop().catch(() => undefined);
    for (const cleanup of cleanups) await cleanup().catch(() => undefined);
  }
}

interface RoundDeps {
  service: ServiceHandle;
  responder: FakePlatformResponder;
  clock: CarrierClock;
  publicUrl: string;
  tokenKey: Buffer;
  rssBaselineBytes: number;
}

async function runRound(calls: number, deps: RoundDeps): Promise<RoundRun> {
  const { service, responder, clock } = deps;
  responder.resetReports();
  const agent = benchAgentSettings(intro || null);
  const placed = Array.from({ length: calls }, (_, i) => benchCall(i, agent, deps.publicUrl, deps.tokenKey));
  for (const call of placed) responder.register(call.context);
  const audio = callerAudio(1);
  const sampler = new ProcessSampler(service.pid);
  const live = new LiveSessionsWatcher(`${service.url}/metrics`);
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  const stallsBefore = clock.stalls;
  sampler.start();
  live.start();
  loopDelay.enable();
  const started = performance.now();
  const results = await Promise.all(
    placed.map(async (call, i) => {
      // Spread the arrivals as a carrier's would be, rather than every stream opening in the same tick.
      await sleep(Math.max(0, started + (i * rampMs) / calls - performance.now()));
      return runSimulatedCall({
        url: call.streamUrl,
        callId: call.context.callId,
        clock,
        audio,
        turns,
        expectIntro: Boolean(intro),
        // Every answer is one synthesis of ttsSeconds (less a margin for resampling at its edges).
        minAnswerFrames: Math.floor(((ttsSeconds * 1000) / FRAME_MS) * 0.9),
      });
    }),
  );
  loopDelay.disable();
  const usage = sampler.stop();
  live.stop();
  // The service reports ended once it has closed each stream; give the last ones a moment.
  const deadline = performance.now() + 10_000;
  while (responder.ended.size < calls && performance.now() < deadline) await sleep(100);
  await live.scrape();
  for (const call of placed) responder.forget(call.context.callId);
  const report = summariseRound({
    calls,
    results,
    turns: responder.turns.map((t) => t.latency),
    endedReports: placed.filter((c) => responder.ended.has(c.context.callId)).length,
    usage,
    rssBaselineBytes: deps.rssBaselineBytes,
    liveSessionsPeak: live.misses > 0 && live.peak === 0 ? undefined : live.peak,
  });
  const errors = [...new Set(results.flatMap((r) => (r.error ? [r.error] : [])))];
  if (errors.length) console.log(`round of ${calls}: call errors: ${errors.slice(0, 5).join('; ')}`);
  return {
    report,
    benchLoopDelayP99Ms: loopDelay.percentile(99) / 1e6,
    benchClockStalls: clock.stalls - stallsBefore,
  };
}

function printReport(runs: RoundRun[], counts: FakeSpeechProviderCounts): void {
  console.table(
    runs.map(({ report: r }) => ({
      calls: r.calls,
      'live peak': r.liveSessionsPeak ?? '-',
      failed: r.failed,
      'frames/call': figure(r.framesPerCall.mean, 0),
      'jitter p50 ms': figure(r.jitterP50Ms, 2),
      'jitter p99 ms': figure(r.jitterP99Ms, 2),
      underruns: r.underruns,
      'own/turn p50 ms': figure(r.ownTimeP50Ms),
      'own/turn p99 ms': figure(r.ownTimeP99Ms),
      'CPU s/call': figure(r.cpuSecondsPerCall, 3),
      'RSS MB/call': figure(r.rssPerCallMb, 2),
    })),
  );
  console.table(
    runs.map(({ report: r, benchLoopDelayP99Ms, benchClockStalls }) => ({
      calls: r.calls,
      'turns reported': r.reportedTurns,
      unanswered: r.unanswered,
      utterances: r.utterances,
      'min frames/call': r.framesPerCall.min,
      'v2v p50 ms': figure(r.voiceToVoiceP50Ms),
      'v2v p99 ms': figure(r.voiceToVoiceP99Ms),
      'heard reply p50 ms': figure(r.replyHeardP50Ms),
      'heard reply p99 ms': figure(r.replyHeardP99Ms),
      'voice CPU %': figure(r.cpuPercent, 0),
      'RSS peak MB': figure(r.rssPeakMb, 0),
      'ended reports': r.endedReports,
      'bench loop p99 ms': figure(benchLoopDelayP99Ms),
      'bench clock stalls': benchClockStalls,
    })),
  );
  console.log(
    'own/turn = first_frame_out_ms - stt_final_ms (final transcript to first answer frame out); jitter = ' +
      '|arrival gap - 20 ms| inside agent utterances; heard reply includes the 700 ms endpointing silence.',
  );
  console.log(`fake provider requests: ${JSON.stringify(counts)}`);
  // Arrival times are taken on this process's event loop: when it lagged, the pacing figures include its lag.
  const lagging = runs.filter((r) => r.benchLoopDelayP99Ms > 5 || r.benchClockStalls > 0);
  for (const r of lagging) {
    console.log(
      `warning: ${r.report.calls} calls: the load generator itself lagged (event loop p99 ` +
        `${r.benchLoopDelayP99Ms.toFixed(1)} ms, ${r.benchClockStalls} clock stalls); jitter and underruns are upper bounds`,
    );
  }
  for (const verdict of runs.flatMap((r) => targetVerdicts(r.report))) console.log(`target: ${verdict}`);
}

main().catch((err) => {
  console.error(`bench failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
