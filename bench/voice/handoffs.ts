/**
 * What a handoff between agents adds to the turn it happens in: N simulated carrier_b calls at once, each with
 * an agent whose one handoff goes to a second agent. The caller's first turn makes the first agent's model call
 * handoff_to_billing; the second agent's model then answers, in that turn; the caller's later turns are the
 * second agent's plain answers. One round per context mode (full, last_turns, summary).
 *
 * The voice service runs as in the voice benchmark (run.ts: NATS of its own, fake STT/TTS servers that answer at
 * once, the callers in a process of their own), with a fake model that answers every completion after
 * BENCH_MODEL_ROUND_MS (one model round) and a fake calls service that answers calls.voice.handoff with the second
 * agent. A turn's delay is the caller's last speech frame -> the agent's first speech frame; the handoff's extra is
 * the handoff turn's delay less the mean of the same call's plain turns, reported in model rounds.
 * Target: at most one model round and a tenth (a handoff turn has two rounds, the one that calls the tool and the
 * next agent's; the tenth is the platform's own handoff work). In summary mode the model writes the summary in its
 * handoff call, so the mode costs no round of its own.
 *
 * Usage: node dist/bench/bench/voice/handoffs.js [N ...]   (default: 50)
 * Settings: BENCH_MODES (full,last_turns,summary), BENCH_TURNS (4), BENCH_MODEL_ROUND_MS (300),
 * BENCH_TTS_SECONDS (1), BENCH_RAMP_MS (2000), BENCH_WARMUP_CALLS (20: a first round in full mode, unreported,
 * that warms the JIT and opens the connections to the fakes), BENCH_LOGS=1 prints the voice service's output.
 */
import { randomBytes } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { connect } from 'nats';
import { FRAME_MS } from '@vap/media';
import { AgentSnapshot, HANDOFF_CONTEXT_MODES, HandoffContextMode, handoffToolName } from '@vap/messages';
import { freePort, ServiceHandle, sleep, startService, workspaceRoot } from '@vap/testing';
import { openBenchInfrastructure } from '../support/bench-infrastructure';
import { reportFigures } from '../support/figures';
import { figure } from '../support/percentiles';
import { benchAgentSettings, benchCall, benchSpeechPlan } from './bench-call';
import { CallerFleet } from './caller-fleet';
import { pinningWanted, pinToCore, processTree } from './core-pinning';
import { FakePlatformResponder, startFakePlatformResponder } from './fake-platform-responder';
import { startFakeSpeechProviders } from './fake-speech-providers';
import {
  HANDOFF_EXTRA_ROUNDS_TARGET,
  handoffFigures,
  handoffLatency,
  HandoffLatencyReport,
} from './handoff-latency';
import { benchVoiceEnv } from './voice-env';

const rounds = process.argv.slice(2).map(Number);
if (rounds.some((n) => !Number.isInteger(n) || n <= 0)) {
  console.error('usage: handoffs.js [concurrent calls ...]  e.g. handoffs.js 50');
  process.exit(2);
}
if (rounds.length === 0) rounds.push(50);
const modes = (process.env.BENCH_MODES ?? HANDOFF_CONTEXT_MODES.join(','))
  .split(',')
  .map((m) => m.trim()) as HandoffContextMode[];
if (modes.some((m) => !HANDOFF_CONTEXT_MODES.includes(m))) {
  console.error(`BENCH_MODES takes ${HANDOFF_CONTEXT_MODES.join(', ')}`);
  process.exit(2);
}
const turns = Number(process.env.BENCH_TURNS ?? 4);
const modelRoundMs = Number(process.env.BENCH_MODEL_ROUND_MS ?? 300);
const ttsSeconds = Number(process.env.BENCH_TTS_SECONDS ?? 1);
const rampMs = Number(process.env.BENCH_RAMP_MS ?? 2000);
const warmupCalls = Number(process.env.BENCH_WARMUP_CALLS ?? 20);
const showLogs = process.env.BENCH_LOGS === '1';
const TRANSCRIPT = 'I have a question about my bill';
const REPLY = 'Your bill is correct, the discount applies next month.';
const BILLING_AGENT_ID = '00000000-0000-4000-8000-0000000b1111';
/** Read before this process is pinned (the count then follows its affinity). */
const cores = availableParallelism();
const pin = pinningWanted(cores);

/** The first agent: no intro, one handoff to billing with `mode`. */
function receptionAgent(mode: HandoffContextMode): AgentSnapshot {
  return {
    ...benchAgentSettings(null),
    handoffs: [
      {
        name: 'billing',
        description: 'The caller asks about a bill.',
        agentId: BILLING_AGENT_ID,
        contextMode: mode,
        lastTurns: mode === 'last_turns' ? 4 : null,
        variables: null,
      },
    ],
  };
}

interface ModeResult {
  mode: HandoffContextMode;
  calls: number;
  failed: number;
  unanswered: number;
  handoffs: number;
  report: HandoffLatencyReport;
}

async function main(): Promise<void> {
  const infra = await openBenchInfrastructure('vap_bench_voice_handoffs');
  const cleanups: (() => Promise<unknown>)[] = [() => infra.close()];
  let voice: ServiceHandle | undefined;
  // The fakes in this process and the callers' process on the first core, voice on the last (set below).
  if (pin) pinToCore(0, process.pid);
  try {
    const nc = await connect({ servers: infra.nats.url, name: 'bench-voice-handoffs' });
    cleanups.unshift(() => nc.drain());
    const responder = await startFakePlatformResponder(nc, infra.prefix, benchSpeechPlan);
    cleanups.unshift(() => responder.close());
    responder.registerAgent({
      agentId: BILLING_AGENT_ID,
      agentName: 'Billing',
      agent: {
        ...benchAgentSettings(null),
        prompt: 'You are the billing desk. Answer in one short sentence.',
      },
    });
    const providers = await startFakeSpeechProviders({
      transcript: TRANSCRIPT,
      reply: REPLY,
      speechSeconds: ttsSeconds,
      completionDelayMs: modelRoundMs,
      // Offered only by the first agent: its model hands off (writing the summary the summary mode's tool asks
      // for; the other modes ignore it); the billing agent's answers.
      toolCall: {
        name: handoffToolName('billing'),
        arguments: () => ({ reason: 'a bill question', summary: 'The caller has a question about a bill.' }),
      },
    });
    cleanups.unshift(() => providers.close());
    const fleet = CallerFleet.start();
    cleanups.unshift(() => fleet.close());
    if (pin && fleet.pid !== undefined) pinToCore(0, fleet.pid);

    const tokenKey = randomBytes(32);
    const port = await freePort();
    voice = await startService('voice', {
      port,
      label: 'voice',
      env: {
        ...benchVoiceEnv(infra, providers, tokenKey, Math.max(...rounds)),
        MEDIA_PUBLIC_URL: `http://127.0.0.1:${port}`,
      },
      logFile: join(workspaceRoot(), '.data', 'logs', 'bench-voice-handoffs-voice.log'),
      prefixLogs: showLogs,
      readyTimeoutMs: 60_000,
    });
    if (pin) for (const pid of processTree(voice.pid)) pinToCore(cores - 1, pid);

    console.log(
      `voice handoff benchmark: rounds of ${rounds.join(', ')} concurrent carrier_b calls per context mode ` +
        `(${modes.join(', ')}), ${turns} turns each (the first hands off), a model round of ${modelRoundMs} ms, ` +
        `Node ${process.version}, load average ${loadavg()[0].toFixed(2)}; ` +
        (pin ? `voice pinned to core ${cores - 1}, callers and fakes to core 0 (taskset)` : 'unpinned'),
    );
    const deps = { responder, fleet, tokenKey, publicUrl: `http://127.0.0.1:${port}` };
    if (warmupCalls > 0) {
      const warmup = await runRound(warmupCalls, 'full', deps);
      console.log(`warm-up round of ${warmupCalls} calls (not reported): ${warmup.failed} failed`);
    }
    const results: ModeResult[] = [];
    for (const calls of rounds) {
      for (const mode of modes) results.push(await runRound(calls, mode, deps));
    }
    printReport(results);
    const broken = results.filter((r) => r.failed > 0 || r.handoffs < r.calls || r.report.measured === 0);
    if (broken.length) {
      throw new Error(
        broken
          .map((r) => `${r.mode} (${r.calls} calls): ${r.failed} failed, ${r.handoffs} handoffs`)
          .join('; '),
      );
    }
  } catch (err) {
    if (voice)
      console.error(`voice (pid ${voice.pid}) last output:\n  ${voice.recentOutput(30).join('\n  ')}`);
    throw err;
  } finally {
    await voice?.stop().catch(() => undefined);
    for (const cleanup of cleanups) await cleanup().catch(() => undefined);
  }
}

interface RoundDeps {
  responder: FakePlatformResponder;
  fleet: CallerFleet;
  tokenKey: Buffer;
  publicUrl: string;
}

async function runRound(calls: number, mode: HandoffContextMode, deps: RoundDeps): Promise<ModeResult> {
  const { responder, fleet } = deps;
  responder.resetReports();
  const placed = Array.from({ length: calls }, (_, i) =>
    benchCall(i, receptionAgent(mode), deps.publicUrl, deps.tokenKey),
  );
  for (const call of placed) responder.register(call.context);
  const round = await fleet.run({
    calls: placed.map((call) => ({ url: call.streamUrl, callId: call.context.callId })),
    rampMs,
    turns,
    expectIntro: false,
    minAnswerFrames: Math.floor(((ttsSeconds * 1000) / FRAME_MS) * 0.9),
  });
  const deadline = performance.now() + 10_000;
  while (responder.ended.size < calls && performance.now() < deadline) await sleep(100);
  for (const call of placed) responder.forget(call.context.callId);
  // A call with an unanswered turn has its delays out of step with its turns: left out.
  const whole = round.results.filter((r) => !r.error && r.unanswered === 0);
  return {
    mode,
    calls,
    failed: round.results.filter((r) => r.error !== undefined).length,
    unanswered: round.results.reduce((sum, r) => sum + r.unanswered, 0),
    handoffs: responder.handoffs.length,
    report: handoffLatency(
      whole.map((r) => r.replyDelaysMs),
      modelRoundMs,
    ),
  };
}

function printReport(results: ModeResult[]): void {
  console.table(
    results.map((r) => ({
      mode: r.mode,
      calls: r.calls,
      failed: r.failed,
      unanswered: r.unanswered,
      handoffs: r.handoffs,
      measured: r.report.measured,
      'plain turn p50 ms': figure(r.report.plainTurnP50Ms, 0),
      'handoff turn p50 ms': figure(r.report.handoffTurnP50Ms, 0),
      'extra p50 ms': figure(r.report.extraP50Ms, 0),
      'extra p99 ms': figure(r.report.extraP99Ms, 0),
      'extra p50 rounds': figure(r.report.extraRoundsP50, 2),
      'extra p99 rounds': figure(r.report.extraRoundsP99, 2),
    })),
  );
  for (const r of results) {
    const met = r.report.extraRoundsP50 <= HANDOFF_EXTRA_ROUNDS_TARGET;
    console.log(
      `${r.mode} (${r.calls} calls): a handoff adds ${figure(r.report.extraRoundsP50, 2)} model rounds at p50 ` +
        `(target <= ${HANDOFF_EXTRA_ROUNDS_TARGET}) ${met ? 'met' : 'MISSED'}`,
    );
  }
  reportFigures(
    results.flatMap((r) => handoffFigures(r.report, `voice handoffs ${r.mode} (${r.calls} calls)`)),
  );
}

main().catch((err) => {
  console.error(`voice handoff benchmark failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
