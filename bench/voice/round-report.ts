// One benchmark round's figures, from what the simulated callers heard, what the voice service reported to the
// fake calls service, and how its process behaved.
import { TurnLatency } from '@vap/messages';
import { BenchFigure, meetsTarget } from '../support/figures';
import { ascending, percentile } from '../support/percentiles';
import { analyseAgentAudio, AgentAudioOptions } from './agent-audio-analysis';
import { SimulatedCallResult } from './simulated-caller';
import { UsageWindow } from './process-sampler';
import { SendPacing } from './send-pacing';

export interface RoundInput {
  calls: number;
  results: readonly SimulatedCallResult[];
  /** Latency parts of every agent turn that answered the caller. */
  turns: readonly TurnLatency[];
  /** calls.voice.ended reports received for this round's calls. */
  endedReports: number;
  usage: UsageWindow;
  /**
   * Resident memory of the idle service before the first round: memory per call is the round's peak above it
   * (a later round's own start already holds what earlier rounds left to the garbage collector).
   */
  rssBaselineBytes: number;
  /** Highest voice_live_sessions seen during the round (undefined when /metrics never had it). */
  liveSessionsPeak: number | undefined;
  /** The voice service's own pacing figures over the round (from its /metrics), when scraped. */
  send?: SendPacing;
  audio?: AgentAudioOptions;
}

export interface RoundReport {
  calls: number;
  /**
   * The streams of the whole round when this report covers part of it (one transport of a mixed round): the
   * targets go by the round's load, and CPU and RSS per call are the whole round's (the process is shared).
   */
  roundCalls?: number;
  /** Calls whose stream failed (refused upgrade, socket error, abnormal close). */
  failed: number;
  /** Caller turns (and intros) the agent did not answer in time. */
  unanswered: number;
  endedReports: number;
  liveSessionsPeak: number | undefined;
  framesPerCall: { mean: number; min: number };
  utterances: number;
  jitterP50Ms: number;
  jitterP99Ms: number;
  jitterSamples: number;
  underruns: number;
  /** As the voice service sent: each frame's lateness against its slot (bucket upper bounds), and underruns. */
  send?: SendPacing;
  /**
   * The platform's own time per turn: first_frame_out_ms - stt_final_ms, i.e. from the final transcript to the
   * first frame of the answer leaving for the carrier (LLM, TTS, resampling, framing and pacing, with providers
   * that answer at once). Both parts are measured by the voice service from the end of the caller's speech.
   */
  ownTimeP50Ms: number;
  ownTimeP99Ms: number;
  /** The own time's stages (p50/p99 ms): final transcript -> LLM first token -> TTS first byte -> first frame out. */
  ownSplit: { llm: [number, number]; tts: [number, number]; frame: [number, number] };
  voiceToVoiceP50Ms: number;
  voiceToVoiceP99Ms: number;
  reportedTurns: number;
  /** Heard by the caller: its last speech frame to the agent's first speech frame (includes endpointing). */
  replyHeardP50Ms: number;
  replyHeardP99Ms: number;
  cpuSecondsPerCall: number;
  /** CPU used over wall time, % of one core. */
  cpuPercent: number;
  rssPeakMb: number;
  /** Resident memory above the idle service's at the round's peak, per call. */
  rssPerCallMb: number;
}

const MB = 1024 * 1024;

export function summariseRound(input: RoundInput): RoundReport {
  const jitter: number[] = [];
  let underruns = 0;
  let utterances = 0;
  const frameCounts: number[] = [];
  const replies: number[] = [];
  for (const result of input.results) {
    const audio = analyseAgentAudio(result.frames, input.audio);
    for (const value of audio.jitterMs) jitter.push(value);
    underruns += audio.underruns;
    utterances += audio.utterances;
    frameCounts.push(audio.frames);
    for (const value of result.replyDelaysMs) replies.push(value);
  }
  const sortedJitter = ascending(jitter);
  const own = ascending(input.turns.map((t) => t.first_frame_out_ms - t.stt_final_ms));
  const v2v = ascending(input.turns.map((t) => t.voice_to_voice_ms));
  const stage = (part: (t: TurnLatency) => number): [number, number] => {
    const sorted = ascending(input.turns.map(part));
    return [percentile(sorted, 50), percentile(sorted, 99)];
  };
  const heard = ascending(replies);
  const { usage } = input;
  return {
    calls: input.calls,
    failed: input.results.filter((r) => r.error !== undefined).length,
    unanswered: input.results.reduce((sum, r) => sum + r.unanswered, 0),
    endedReports: input.endedReports,
    liveSessionsPeak: input.liveSessionsPeak,
    framesPerCall: {
      mean: frameCounts.length ? frameCounts.reduce((a, b) => a + b, 0) / frameCounts.length : 0,
      min: frameCounts.length ? Math.min(...frameCounts) : 0,
    },
    utterances,
    jitterP50Ms: percentile(sortedJitter, 50),
    jitterP99Ms: percentile(sortedJitter, 99),
    jitterSamples: sortedJitter.length,
    underruns,
    ...(input.send ? { send: input.send } : {}),
    ownTimeP50Ms: percentile(own, 50),
    ownTimeP99Ms: percentile(own, 99),
    ownSplit: {
      llm: stage((t) => t.llm_first_token_ms - t.stt_final_ms),
      tts: stage((t) => t.tts_first_byte_ms - t.llm_first_token_ms),
      frame: stage((t) => t.first_frame_out_ms - t.tts_first_byte_ms),
    },
    voiceToVoiceP50Ms: percentile(v2v, 50),
    voiceToVoiceP99Ms: percentile(v2v, 99),
    reportedTurns: input.turns.length,
    replyHeardP50Ms: percentile(heard, 50),
    replyHeardP99Ms: percentile(heard, 99),
    cpuSecondsPerCall: input.calls ? usage.cpuSeconds / input.calls : 0,
    cpuPercent: usage.wallSeconds > 0 ? (100 * usage.cpuSeconds) / usage.wallSeconds : 0,
    rssPeakMb: usage.rssPeakBytes / MB,
    rssPerCallMb: input.calls
      ? Math.max(0, usage.rssPeakBytes - input.rssBaselineBytes) / MB / input.calls
      : 0,
  };
}

/**
 * The round's headline figures with the targets where the round size has one: pacing (jitter p99 under
 * 5 ms, no underruns) from 200 calls up, the platform's own time per turn (p99 under 20 ms) at 100 calls.
 */
export function roundFigures(report: RoundReport, bench: string): BenchFigure[] {
  const load = report.roundCalls ?? report.calls;
  const pacingTargets = load >= 200;
  return [
    {
      bench,
      figure: 'pacing jitter p99',
      value: report.jitterP99Ms,
      unit: 'ms',
      ...(pacingTargets ? { target: { op: '<' as const, value: 5 } } : {}),
    },
    {
      bench,
      figure: 'underruns',
      value: report.underruns,
      unit: 'frames',
      ...(pacingTargets ? { target: { op: '<=' as const, value: 0 } } : {}),
    },
    ...(report.send
      ? [
          {
            bench,
            figure: 'send lateness p99 (voice service)',
            value: report.send.latenessP99Ms,
            unit: 'ms',
            ...(pacingTargets ? { target: { op: '<' as const, value: 5 } } : {}),
          },
          {
            bench,
            figure: 'send underruns (voice service)',
            value: report.send.underruns,
            unit: 'frames',
            ...(pacingTargets ? { target: { op: '<=' as const, value: 0 } } : {}),
          },
        ]
      : []),
    {
      bench,
      figure: 'own time per turn p99',
      value: report.ownTimeP99Ms,
      unit: 'ms',
      ...(load === 100 ? { target: { op: '<' as const, value: 20 } } : {}),
    },
    { bench, figure: 'CPU per call', value: report.cpuSecondsPerCall, unit: 's' },
  ];
}

/**
 * One transport's share of a mixed round (`share`: its calls, their results, turns and ended reports, the
 * round's usage): what its callers heard and the turns of its calls, with the whole
 * round's CPU and RSS per call (the voice process serves both transports at once, so they cannot be told apart).
 */
export function summariseShare(share: RoundInput, whole: RoundReport): RoundReport {
  return {
    ...summariseRound(share),
    roundCalls: whole.calls,
    liveSessionsPeak: whole.liveSessionsPeak,
    cpuSecondsPerCall: whole.cpuSecondsPerCall,
    rssPerCallMb: whole.rssPerCallMb,
  };
}

/** The round's figures that have a target, each as "met" or "MISSED". */
export function targetVerdicts(report: RoundReport): string[] {
  return roundFigures(report, '')
    .filter((f) => f.target)
    .map((f) => {
      const shown =
        f.unit === 'ms' ? `${f.value.toFixed(f.figure.startsWith('own') ? 1 : 2)} ms` : String(f.value);
      const target =
        f.target!.op === '<=' && f.target!.value === 0 ? '0' : `${f.target!.op} ${f.target!.value}`;
      const calls = report.roundCalls ? `${report.calls} of ${report.roundCalls}` : String(report.calls);
      return `${calls} calls: ${f.figure.replace('pacing ', '')} ${shown} (target ${target}) ${meetsTarget(f) ? 'met' : 'MISSED'}`;
    });
}
