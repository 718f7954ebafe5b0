/**
 * Turn-taking benchmark: N scripted carrier_b callers at once against the built voice service, with providers that
 * answer at once, to measure how the agent takes turns: how soon it answers a finished question, whether it cuts
 * a caller off at a pause in the middle of a sentence, whether acknowledgements ("yeah", "okay") interrupt it, and
 * whether it recovers from noise that made it go quiet.
 *
 * The same machinery as run.ts: NATS under a prefix of its own, the fake calls and agents services, the voice
 * service started by startService, zero-latency fake OpenAI-compatible STT, chat and TTS in this process, and the
 * callers in a process of their own. What differs: each caller says a script (turn-script.ts) whose words its
 * audio carries (audio-code.ts), and the fake STT answers from the uploaded audio, so a transcription of part of
 * an utterance (the voice service's speculation at a pause) answers the words heard so far. Each call, in turn:
 * a finished question; a sentence with a 300-900 ms pause after a word no sentence ends on; over the agent's
 * answers, an acknowledgement of 300-400 ms or 1-1.5 s of loud noise (which transcribes to nothing).
 *
 * Reports: for finished questions, from the end of the caller's speech to the first agent speech frame the caller
 * received (p50/p99); false cut-offs (the agent heard, or the model asked, during a split sentence's pause: it
 * answered the first half); acknowledgements that interrupted the agent (a `clear` or its audio stopping while or
 * just after it); noise bursts the agent went quiet for and did not resume from within 3 s; the platform's own time
 * per turn (first_frame_out_ms - stt_final_ms) and its endpointing wait from the reported latency parts; and the
 * service's voice_turn_taking_events_total over the round.
 *
 * Usage: node dist/bench/bench/voice/turn-taking.js [N]   (default: 100 concurrent calls)
 * Settings: BENCH_TURNS (4: each call's cycle of question + acknowledgement, split sentence + noise, question +
 * noise, split sentence + acknowledgement), BENCH_TTS_SECONDS (4, speech per synthesis: the agent's answer must
 * outlast the sound made over it), BENCH_TURN_TAKING (the agent's turn_taking as JSON, over the defaults: balanced,
 * backchannels ignored; e.g. '{"mode":"fast"}', or '{"max_silence_ms":400,"ignore_backchannels":false}' to see the
 * benchmark catch cut-offs and interruptions), BENCH_RAMP_MS (2000),
 * BENCH_WARMUP_CALLS (20, an unreported first round; 0 for none), BENCH_LOGS=1 prints the voice service's output.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { connect } from 'nats';
import { decodePcm16Wav } from '@vap/media';
import { TURN_TAKING_MODES, TurnTakingConfig, TurnTakingDefaults, turnTakingSnapshotOf } from '@vap/messages';
import { freePort, ServiceHandle, sleep, startService, workspaceRoot } from '@vap/testing';
import { openBenchNats } from '../support/bench-nats';
import { reportFigures } from '../support/figures';
import { figure } from '../support/percentiles';
import { readCodes } from './audio-code';
import { benchAgentSettings, benchCall, benchSpeechPlan } from './bench-call';
import { CallerFleet } from './caller-fleet';
import { FakePlatformResponder, startFakePlatformResponder } from './fake-platform-responder';
import {
  ChatCompletionRequest,
  FakeSpeechProviderCounts,
  startFakeSpeechProviders,
} from './fake-speech-providers';
import { ProcessSampler, UsageWindow } from './process-sampler';
import { AFTER_OVERLAP_WAIT_MS } from './scripted-caller';
import {
  counterDelta,
  Distribution,
  ModelRequest,
  OVERLAP_EFFECT_MS,
  readCounterByLabel,
  ReportedTurn,
  summariseTurnTaking,
  TURN_TAKING_EVENTS,
  TurnTakingReport,
  turnTakingFigures,
  turnTakingVerdicts,
} from './turn-taking-report';
import { callerLineKind, OVERLAP_AFTER_MS, transcriptOfPieces } from './turn-script';
import { benchVoiceEnv } from './voice-env';

const calls = Number(process.argv[2] ?? 100);
if (!Number.isInteger(calls) || calls <= 0) {
  console.error('usage: turn-taking.js [concurrent calls]  e.g. turn-taking.js 100');
  process.exit(2);
}
const turns = Number(process.env.BENCH_TURNS ?? 4);
const ttsSeconds = Number(process.env.BENCH_TTS_SECONDS ?? 4);
const turnTaking = turnTakingSetting(process.env.BENCH_TURN_TAKING);
/** How the round's name shows the setting: the mode, and any overrides. */
const setting = [
  turnTaking.mode,
  ...Object.entries(turnTaking)
    .filter(([key, value]) => key !== 'mode' && value !== TurnTakingDefaults[key as keyof TurnTakingConfig])
    .map(([key, value]) => `${key} ${String(value)}`),
].join(', ');
const rampMs = Number(process.env.BENCH_RAMP_MS ?? 2000);
const warmupCalls = Number(process.env.BENCH_WARMUP_CALLS ?? 20);
const showLogs = process.env.BENCH_LOGS === '1';
/** One sentence: every answer is one synthesis of ttsSeconds. */
const REPLY = 'Let me check that for you right away.';
const TURN_TAKING_METRIC = 'voice_turn_taking_events_total';
/** The system prompt names the call, so the fake model can tell whose line it was asked about. */
const CALL_VARIABLE = 'bench_call';
const CALL_IN_PROMPT = /\[bench call (\d+)\]/;

function turnTakingSetting(json: string | undefined): TurnTakingConfig {
  const given = json ? (JSON.parse(json) as Partial<TurnTakingConfig>) : {};
  const config = { ...TurnTakingDefaults, ...given };
  if (!TURN_TAKING_MODES.includes(config.mode)) {
    console.error(`BENCH_TURN_TAKING: mode is one of ${TURN_TAKING_MODES.join(', ')}`);
    process.exit(2);
  }
  return config;
}

/** What the fake STT and model saw during a round. */
interface ProviderLog {
  modelRequests: ModelRequest[];
  /** Transcriptions that answered the first half of a split sentence alone (speculation at its pause). */
  firstHalfTranscriptions: number;
  /** Transcriptions of audio that carried no code (noise, or silence). */
  emptyTranscriptions: number;
}

async function main(): Promise<void> {
  // The answer must outlast the caller's sound over it and the time its effect is looked for.
  const overlapWindowMs = OVERLAP_AFTER_MS + 1500 + OVERLAP_EFFECT_MS;
  if (ttsSeconds * 1000 * 0.9 <= overlapWindowMs) {
    console.error(`BENCH_TTS_SECONDS: answers must last over ${overlapWindowMs / 900} s to be judged`);
    process.exit(2);
  }
  const infra = await openBenchNats();
  const cleanups: (() => Promise<unknown>)[] = [() => infra.close()];
  const log: ProviderLog = { modelRequests: [], firstHalfTranscriptions: 0, emptyTranscriptions: 0 };
  try {
    const nc = await connect({ servers: infra.nats.url, name: 'bench-voice-turns' });
    cleanups.unshift(() => nc.drain());
    const responder = await startFakePlatformResponder(nc, infra.prefix, benchSpeechPlan);
    cleanups.unshift(() => responder.close());
    const providers = await startFakeSpeechProviders({
      transcript: (file) => transcribe(file, log),
      reply: REPLY,
      speechSeconds: ttsSeconds,
      onCompletion: (request) => noteModelRequest(request, log),
    });
    cleanups.unshift(() => providers.close());
    const tokenKey = randomBytes(32);
    const fleet = CallerFleet.start();
    cleanups.unshift(() => fleet.close());
    const env = benchVoiceEnv(infra, providers, tokenKey, Math.max(calls, warmupCalls));

    console.log(
      `voice turn-taking benchmark: ${calls} concurrent carrier_b calls of ${turns} scripted turns each ` +
        `(turn-taking: ${setting}), ${ttsSeconds} s of speech per synthesis, zero-latency fake providers, Node ${process.version}`,
    );
    const port = await freePort();
    const voice = await startService('voice', {
      port,
      label: 'voice',
      env: { ...env, MEDIA_PUBLIC_URL: `http://127.0.0.1:${port}` },
      logFile: join(workspaceRoot(), '.data', 'logs', 'bench-voice-turns.log'),
      prefixLogs: showLogs,
      readyTimeoutMs: 60_000,
    });
    cleanups.unshift(() => voice.stop().catch(() => undefined));
    try {
      const deps = { voice, responder, fleet, tokenKey, log };
      if (warmupCalls > 0) {
        const warmup = await runRound(warmupCalls, deps);
        console.log(
          `warm-up round of ${warmupCalls} calls (not reported): ${warmup.report.failed} failed, ` +
            `${warmup.report.unanswered} unanswered`,
        );
      }
      const round = await runRound(calls, deps);
      printReport(round, providers.counts);
      if (round.report.failed > 0) throw new Error(`${round.report.failed} of ${calls} calls failed`);
    } catch (err) {
      console.error(`voice (pid ${voice.pid}) last output:\n  ${voice.recentOutput(30).join('\n  ')}`);
      throw err;
    }
  } finally {
    for (const cleanup of cleanups) await cleanup().catch(() => undefined);
  }
}

/** The fake STT: the words of the script pieces the uploaded audio carries, in the order heard. */
function transcribe(file: Buffer, log: ProviderLog): string {
  const codes = readCodes(decodePcm16Wav(file).samples);
  if (codes.length === 0) log.emptyTranscriptions++;
  const text = transcriptOfPieces(codes.map((c) => c.piece));
  if (callerLineKind(text) === 'first-half') log.firstHalfTranscriptions++;
  return text;
}

function noteModelRequest(request: ChatCompletionRequest, log: ProviderLog): void {
  const messages = request.messages ?? [];
  const system = messages.find((m) => m.role === 'system')?.content;
  const call = typeof system === 'string' ? CALL_IN_PROMPT.exec(system)?.[1] : undefined;
  const lastUser = [...messages].reverse().find((m) => m.role === 'user')?.content;
  if (call === undefined || typeof lastUser !== 'string') return;
  log.modelRequests.push({ call: Number(call), lastUser });
}

interface RoundDeps {
  voice: ServiceHandle;
  responder: FakePlatformResponder;
  fleet: CallerFleet;
  tokenKey: Buffer;
  log: ProviderLog;
}

interface RoundRun {
  report: TurnTakingReport;
  usage: UsageWindow;
  firstHalfTranscriptions: number;
  emptyTranscriptions: number;
  /** Chat completions whose call the system prompt named (all of them, unless the prompt lost the marker). */
  modelRequests: number;
  loopDelayP99Ms: number;
  clockStalls: number;
}

async function scrapeEvents(metricsUrl: string): Promise<Record<string, number>> {
  const res = await fetch(metricsUrl, { signal: AbortSignal.timeout(5000) });
  if (!res.ok) throw new Error(`${metricsUrl}: HTTP ${res.status}`);
  return readCounterByLabel(await res.text(), TURN_TAKING_METRIC, 'event');
}

async function runRound(count: number, deps: RoundDeps): Promise<RoundRun> {
  const { voice, responder, fleet, log } = deps;
  responder.resetReports();
  log.modelRequests.length = 0;
  log.firstHalfTranscriptions = 0;
  log.emptyTranscriptions = 0;
  const agent = {
    ...benchAgentSettings(null),
    prompt: `You are a benchmark agent [bench call {{${CALL_VARIABLE}}}]. Answer every caller in one short sentence.`,
    turnTaking: turnTakingSnapshotOf(turnTaking),
  };
  const placed = Array.from({ length: count }, (_, i) => {
    const call = benchCall(i, agent, voice.url, deps.tokenKey);
    call.context.variables = { [CALL_VARIABLE]: String(i) };
    return call;
  });
  for (const call of placed) responder.register(call.context);
  const metricsUrl = `${voice.url}/metrics`;
  const before = await scrapeEvents(metricsUrl);
  const sampler = new ProcessSampler([voice.pid]);
  sampler.start();
  const round = await fleet.runScripted({
    calls: placed.map((call, index) => ({ url: call.streamUrl, callId: call.context.callId, index })),
    rampMs,
    turns,
  });
  const usage = sampler.stop();
  const deadline = performance.now() + 10_000;
  while (responder.ended.size < count && performance.now() < deadline) await sleep(100);
  const events = counterDelta(before, await scrapeEvents(metricsUrl));
  for (const call of placed) responder.forget(call.context.callId);
  const report = summariseTurnTaking({
    calls: count,
    results: round.results,
    modelRequests: log.modelRequests,
    reportedTurns: reportedTurns(responder),
    events,
  });
  const errors = [...new Set(round.results.flatMap((r) => (r.error ? [r.error] : [])))];
  if (errors.length) console.log(`round of ${count}: call errors: ${errors.slice(0, 5).join('; ')}`);
  return {
    report,
    usage,
    firstHalfTranscriptions: log.firstHalfTranscriptions,
    emptyTranscriptions: log.emptyTranscriptions,
    modelRequests: log.modelRequests.length,
    loopDelayP99Ms: round.loopDelayP99Ms,
    clockStalls: round.clockStalls,
  };
}

/**
 * The agent turns' latency parts, each with the caller line it answered: the last line of the script the caller
 * said before it in the same call (acknowledgements are reported too, but start no turn).
 */
function reportedTurns(responder: FakePlatformResponder): ReportedTurn[] {
  const lastLine = new Map<string, ReturnType<typeof callerLineKind>>();
  const out: ReportedTurn[] = [];
  for (const line of responder.transcripts) {
    if (line.role === 'user') {
      const kind = callerLineKind(line.content);
      if (kind !== 'backchannel') lastLine.set(line.callId, kind);
    } else if (line.latency) {
      out.push({ latency: line.latency, callerLine: lastLine.get(line.callId) });
    }
  }
  return out;
}

function shown(d: Distribution): string {
  return d.count ? `${figure(d.p50, 0)} / ${figure(d.p99, 0)}` : '-';
}

function printReport(run: RoundRun, counts: FakeSpeechProviderCounts): void {
  const r = run.report;
  const pct = (value: number) => (Number.isFinite(value) ? `${(100 * value).toFixed(1)} %` : '-');
  console.table([
    {
      calls: r.calls,
      failed: r.failed,
      unanswered: r.unanswered,
      'question -> agent p50/p99 ms': shown(r.completeReply),
      questions: r.completeReply.count,
      'split sentence -> agent p50/p99 ms': shown(r.incompleteReply),
      'own/turn p50/p99 ms': shown(r.ownTime),
      'endpointing question p50/p99 ms': shown(r.endpointingComplete),
      'endpointing split p50/p99 ms': shown(r.endpointingIncomplete),
      'voice CPU %': figure((100 * run.usage.cpuSeconds) / Math.max(run.usage.wallSeconds, 1e-9), 0),
    },
  ]);
  console.table([
    {
      'split sentences': r.incomplete,
      'false cut-offs': `${r.falseCutOffs} (${pct(r.falseCutOffRate)})`,
      'heard / model asked': `${r.falseCutOffsHeard} / ${r.falseCutOffsModel}`,
      'by pause (ms: cut/turns)': r.cutOffsByPause
        .map(([from, to, n, cut]) => `${from}-${to}: ${cut}/${n}`)
        .join(', '),
      backchannels: r.backchannels,
      interrupting: `${r.backchannelsInterrupting} (${pct(r.backchannelInterruptRate)})`,
      'answered by the model': r.backchannelsAnswered,
      'noise bursts': r.noiseBursts,
      'agent went quiet': r.held,
      'resumed <= 3 s': r.recovered,
      'not recovered': r.notRecovered,
      'resume after noise p50/p99 ms': shown(r.resumeAfterNoise),
    },
  ]);
  console.log(
    `turn-taking events (voice_turn_taking_events_total over the round): ` +
      TURN_TAKING_EVENTS.map((e) => `${e} ${r.events[e] ?? 0}`).join(', '),
  );
  console.log(
    `fake provider requests: ${JSON.stringify(counts)}; transcriptions that answered a first half alone ` +
      `(speculation at the pause): ${run.firstHalfTranscriptions}; with no words: ${run.emptyTranscriptions}; ` +
      `completions whose call and last line were read: ${run.modelRequests}`,
  );
  console.log(
    'question -> agent = from the caller sending its last speech frame to receiving the first agent speech frame ' +
      '(endpointing included); own/turn = first_frame_out_ms - stt_final_ms; endpointing = endpointing_ms, both ' +
      `as the voice service reported them; a backchannel interrupted when a clear or a ${OVERLAP_EFFECT_MS / 1000} s ` +
      `window after it saw the agent stop; not recovered = quiet for noise and not audible again within ` +
      `${AFTER_OVERLAP_WAIT_MS / 1000} s of its end.`,
  );
  if (run.loopDelayP99Ms > 5 || run.clockStalls > 0) {
    console.log(
      `warning: the callers' event loop lagged (p99 ${run.loopDelayP99Ms.toFixed(1)} ms, ${run.clockStalls} clock ` +
        'stalls): the times they measured include that lag',
    );
  }
  for (const verdict of turnTakingVerdicts(r)) console.log(`target: ${verdict}`);
  reportFigures(turnTakingFigures(r, `voice turn-taking (${r.calls} calls, ${setting})`));
}

main().catch((err) => {
  console.error(`bench failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
