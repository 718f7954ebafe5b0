// The turn-taking benchmark's figures, from what the scripted callers did and heard (scripted-caller.ts), what the
// fake model was asked, the latency parts the voice service reported, and its turn-taking counters.
import { TurnLatency } from '@vap/messages';
import { BenchFigure, meetsTarget } from '../support/figures';
import { ascending, percentile } from '../support/percentiles';
import { AFTER_OVERLAP_WAIT_MS, ScriptedCallResult } from './scripted-caller';
import { CallerLineKind, normaliseWords, PAUSE_MS } from './turn-script';

/** A hole this long in the agent's speech frames is the agent stopping (paced frames arrive every 20 ms). */
export const STOP_GAP_MS = 200;
/** After an acknowledgement or noise ends, a `clear` or stop this soon is still its doing. */
export const OVERLAP_EFFECT_MS = 1000;
/** A false barge-in must be recovered from (the agent audible again) this soon after the noise ends. */
export const RECOVERY_MS = AFTER_OVERLAP_WAIT_MS;

export const TURN_TAKING_EVENTS = [
  'barge_in',
  'backchannel',
  'held',
  'false_barge_in_recovered',
  'early_reply_used',
  'early_reply_discarded',
] as const;

/** A chat completion the fake model was asked: which call (from its system prompt) and the caller's last line. */
export interface ModelRequest {
  call: number;
  lastUser: string;
}

/** An agent turn's latency parts, with the caller line it answered (undefined when none of the script's). */
export interface ReportedTurn {
  latency: TurnLatency;
  callerLine: CallerLineKind | undefined;
}

export interface TurnTakingInput {
  calls: number;
  results: readonly ScriptedCallResult[];
  modelRequests: readonly ModelRequest[];
  reportedTurns: readonly ReportedTurn[];
  /** voice_turn_taking_events_total over the round, by event. */
  events: Record<string, number>;
}

export interface Distribution {
  count: number;
  p50: number;
  p99: number;
}

export interface TurnTakingReport {
  calls: number;
  failed: number;
  /** Turns the agent did not answer within the callers' timeout. */
  unanswered: number;
  /** End of the caller's speech to the first agent speech frame received, complete utterances (the headline). */
  completeReply: Distribution;
  /** The same for split sentences (which wait for more silence unless cut off). */
  incompleteReply: Distribution;
  incomplete: number;
  /** Split sentences the agent answered at their mid-sentence pause: heard by the caller, or the model asked. */
  falseCutOffs: number;
  falseCutOffsHeard: number;
  falseCutOffsModel: number;
  falseCutOffRate: number;
  /** By pause length: [from ms, to ms, turns, cut off]. */
  cutOffsByPause: [number, number, number, number][];
  backchannels: number;
  backchannelsInterrupting: number;
  backchannelInterruptRate: number;
  /** Acknowledgements the model was asked to answer. */
  backchannelsAnswered: number;
  noiseBursts: number;
  /** Noise bursts the agent went quiet for. */
  held: number;
  recovered: number;
  notRecovered: number;
  /** From the end of the noise to the agent audible again, for the bursts it went quiet for. */
  resumeAfterNoise: Distribution;
  /** Turn latency parts as the voice service reported them. */
  reportedTurns: number;
  ownTime: Distribution;
  endpointingComplete: Distribution;
  endpointingIncomplete: Distribution;
  events: Record<string, number>;
}

function distribution(values: number[]): Distribution {
  const sorted = ascending(values);
  return { count: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
}

/** Index of the first value > t in ascending `times` (times.length when none). */
export function firstAfter(times: readonly number[], t: number): number {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (times[mid] <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Where the agent's speech stopped between `from` and `to`: the last frame before a hole of STOP_GAP_MS or more
 * (or before its speech ended for good) that begins in the window, and the frame that ended the hole, if any.
 */
export function speechStop(
  speechAt: readonly number[],
  from: number,
  to: number,
): { stoppedAt: number; resumedAt: number | undefined } | undefined {
  // From the last frame heard at or before `from` (its hole may span the window's start) onwards.
  let i = Math.max(0, firstAfter(speechAt, from) - 1);
  for (; i < speechAt.length && speechAt[i] <= to; i++) {
    const next = speechAt[i + 1];
    if (next === undefined || next - speechAt[i] >= STOP_GAP_MS) {
      if (next === undefined && speechAt[i] < from) return undefined;
      return { stoppedAt: speechAt[i], resumedAt: next };
    }
  }
  return undefined;
}

function clearBetween(clearsAt: readonly number[], from: number, to: number): number | undefined {
  return clearsAt.find((t) => t >= from && t <= to);
}

export function summariseTurnTaking(input: TurnTakingInput): TurnTakingReport {
  const complete: number[] = [];
  const incompleteReplies: number[] = [];
  const resumes: number[] = [];
  const pauseBuckets: [number, number, number, number][] = [
    [PAUSE_MS.min, 500, 0, 0],
    [500, 700, 0, 0],
    [700, PAUSE_MS.max, 0, 0],
  ];
  const asked = new Set(input.modelRequests.map((r) => `${r.call}\u0000${normaliseWords(r.lastUser)}`));
  let unanswered = 0;
  let incomplete = 0;
  let cutHeard = 0;
  let cutModel = 0;
  let cut = 0;
  let backchannels = 0;
  let interrupting = 0;
  let noiseBursts = 0;
  let held = 0;
  let recovered = 0;
  for (const call of input.results) {
    const speech = call.agentSpeechAt;
    call.turns.forEach((turn, t) => {
      if (turn.unanswered) unanswered++;
      if (turn.speechEndAt === undefined) return;
      const nextStart = call.turns[t + 1]?.speechStartAt ?? Number.POSITIVE_INFINITY;
      const reply = speech[firstAfter(speech, turn.speechEndAt)];
      const replyMs = reply !== undefined && reply < nextStart ? reply - turn.speechEndAt : undefined;
      if (turn.kind === 'complete') {
        if (replyMs !== undefined) complete.push(replyMs);
      } else {
        if (replyMs !== undefined) incompleteReplies.push(replyMs);
        incomplete++;
        const pauseStart = turn.pauseStartAt ?? turn.speechEndAt;
        const heard = speech[firstAfter(speech, pauseStart)] <= turn.speechEndAt;
        const model = asked.has(`${call.callIndex}\u0000${normaliseWords(turn.firstText)}`);
        if (heard) cutHeard++;
        if (model) cutModel++;
        const bucket = pauseBuckets.find(([from, to]) => turn.pauseMs >= from && turn.pauseMs <= to);
        if (bucket) bucket[2]++;
        if (heard || model) {
          cut++;
          if (bucket) bucket[3]++;
        }
      }
      const { overlapStartAt: start, overlapEndAt: end } = turn;
      if (start === undefined || end === undefined) return;
      const effectEnd = end + OVERLAP_EFFECT_MS;
      const stop = speechStop(speech, start, effectEnd);
      const clear = clearBetween(call.clearsAt, start, effectEnd);
      if (turn.overlap === 'backchannel') {
        backchannels++;
        if (stop || clear !== undefined) interrupting++;
      } else if (turn.overlap === 'noise') {
        noiseBursts++;
        if (!stop && clear === undefined) return;
        held++;
        // Audible again: the frame that ended the hole, or (a clear with no hole) the next one after the clear.
        const resumedAt = stop ? stop.resumedAt : speech[firstAfter(speech, clear!)];
        if (resumedAt !== undefined && resumedAt <= end + RECOVERY_MS) {
          recovered++;
          resumes.push(Math.max(0, resumedAt - end));
        }
      }
    });
  }
  const backchannelTexts = new Set(['yeah', 'okay', 'mm-hmm']);
  const turns = input.reportedTurns;
  return {
    calls: input.calls,
    failed: input.results.filter((r) => r.error !== undefined).length,
    unanswered,
    completeReply: distribution(complete),
    incompleteReply: distribution(incompleteReplies),
    incomplete,
    falseCutOffs: cut,
    falseCutOffsHeard: cutHeard,
    falseCutOffsModel: cutModel,
    falseCutOffRate: incomplete ? cut / incomplete : Number.NaN,
    cutOffsByPause: pauseBuckets,
    backchannels,
    backchannelsInterrupting: interrupting,
    backchannelInterruptRate: backchannels ? interrupting / backchannels : Number.NaN,
    backchannelsAnswered: input.modelRequests.filter((r) => backchannelTexts.has(normaliseWords(r.lastUser)))
      .length,
    noiseBursts,
    held,
    recovered,
    notRecovered: held - recovered,
    resumeAfterNoise: distribution(resumes),
    reportedTurns: turns.length,
    ownTime: distribution(turns.map((t) => t.latency.first_frame_out_ms - t.latency.stt_final_ms)),
    endpointingComplete: distribution(
      turns.filter((t) => t.callerLine === 'complete').map((t) => t.latency.endpointing_ms),
    ),
    endpointingIncomplete: distribution(
      turns.filter((t) => t.callerLine === 'incomplete').map((t) => t.latency.endpointing_ms),
    ),
    events: input.events,
  };
}

/**
 * A labelled counter in Prometheus text exposition, by the value of `label` (summed over its other labels).
 */
export function readCounterByLabel(exposition: string, name: string, label: string): Record<string, number> {
  const out: Record<string, number> = {};
  const labelPattern = new RegExp(`(?:^|,)${label}="([^"]*)"`);
  for (const line of exposition.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const close = line.lastIndexOf('}');
    const key = labelPattern.exec(line.slice(name.length + 1, close))?.[1];
    const value = Number(
      line
        .slice(close + 1)
        .trim()
        .split(' ')[0],
    );
    if (key === undefined || !Number.isFinite(value)) continue;
    out[key] = (out[key] ?? 0) + value;
  }
  return out;
}

/** after - before, for every key of either. */
export function counterDelta(
  before: Record<string, number>,
  after: Record<string, number>,
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    out[key] = (after[key] ?? 0) - (before[key] ?? 0);
  }
  return out;
}

/** The round's headline figures, with the targets turn-taking is held to. */
export function turnTakingFigures(report: TurnTakingReport, bench: string): BenchFigure[] {
  return [
    {
      bench,
      figure: 'complete utterance: end of speech -> agent audio p50',
      value: report.completeReply.p50,
      unit: 'ms',
      target: { op: '<', value: 350 },
    },
    {
      bench,
      figure: 'complete utterance: end of speech -> agent audio p99',
      value: report.completeReply.p99,
      unit: 'ms',
      target: { op: '<', value: 800 },
    },
    {
      bench,
      figure: 'false cut-offs (answered at a mid-sentence pause)',
      value: 100 * report.falseCutOffRate,
      unit: '%',
      target: { op: '<=', value: 5 },
    },
    {
      bench,
      figure: 'backchannels that interrupted the agent',
      value: 100 * report.backchannelInterruptRate,
      unit: '%',
      target: { op: '<=', value: 5 },
    },
    {
      bench,
      figure: 'false barge-ins not recovered within 3 s',
      value: report.notRecovered,
      unit: 'bursts',
      target: { op: '<=', value: 0 },
    },
    { bench, figure: 'own time per turn p50', value: report.ownTime.p50, unit: 'ms' },
    { bench, figure: 'own time per turn p99', value: report.ownTime.p99, unit: 'ms' },
  ];
}

/** Each targeted figure as PASS or FAIL, with its value. */
export function turnTakingVerdicts(report: TurnTakingReport): string[] {
  return turnTakingFigures(report, '')
    .filter((f) => f.target)
    .map((f) => {
      const value = Number.isFinite(f.value)
        ? `${Number(f.value.toFixed(f.unit === 'bursts' ? 0 : 1))}`
        : '-';
      return `${meetsTarget(f) ? 'PASS' : 'FAIL'}  ${f.figure}: ${value} ${f.unit} (target ${f.target!.op} ${f.target!.value} ${f.unit})`;
    });
}
