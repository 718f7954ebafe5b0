// The platform's own time per partner tool call, from four moments the benchmark process sees on one clock
// (performance.now()), keyed by the tool call's id: the fake chat server finished streaming the completion that
// asked for the call, the partner endpoint received the request, the partner finished its answer, and the fake
// chat server received the next completion request, the one carrying the result (its `tool` message names the
// call's id). With a chat server and a partner that answer at once, the two gaps are the platform's work.
import { BenchFigure } from '../support/figures';
import { ascending, percentile } from '../support/percentiles';

/** The target of both gaps' p99 (ms), set at 100 concurrent calls. */
export const TOOL_GAP_TARGET_MS = 5;
/** The round size the target is set for. */
export const TOOL_GAP_TARGET_CALLS = 100;

interface Moments {
  streamed?: number;
  partnerReceived?: number;
  partnerAnswered?: number;
  resultReceived?: number;
}

export interface ToolCallTimingReport {
  /** Tool calls the chat server streamed. */
  toolCalls: number;
  /** Of those, the ones whose four moments were all seen (the figures cover these). */
  complete: number;
  /** Streamed but never reached the partner (a discarded model round, a refused request, the call ended). */
  notSent: number;
  /** Reached the partner but no completion request carried the result. */
  resultNotSeen: number;
  /** Moments seen for a call that was never streamed (another run's, or a bug in the pairing): should be 0. */
  unknown: number;
  /** Tool-call completion streamed -> partner received the request, ms. */
  dispatchP50Ms: number;
  dispatchP99Ms: number;
  /** Partner answered -> next completion request received, ms. */
  resumeP50Ms: number;
  resumeP99Ms: number;
  dispatchMaxMs: number;
  resumeMaxMs: number;
}

/** The moments of one round's tool calls. Each moment keeps its first sighting (a retry does not move it). */
export class ToolCallTimeline {
  private readonly calls = new Map<string, Moments>();
  private unknown = 0;

  streamed(id: string, at: number): void {
    const moments = this.calls.get(id) ?? {};
    moments.streamed ??= at;
    this.calls.set(id, moments);
  }

  partnerReceived(id: string, at: number): void {
    this.mark(id, 'partnerReceived', at);
  }

  partnerAnswered(id: string, at: number): void {
    this.mark(id, 'partnerAnswered', at);
  }

  resultReceived(id: string, at: number): void {
    this.mark(id, 'resultReceived', at);
  }

  private mark(id: string, moment: Exclude<keyof Moments, 'streamed'>, at: number): void {
    const moments = this.calls.get(id);
    if (!moments) {
      this.unknown++;
      return;
    }
    moments[moment] ??= at;
  }

  summarise(): ToolCallTimingReport {
    const dispatch: number[] = [];
    const resume: number[] = [];
    let notSent = 0;
    let resultNotSeen = 0;
    for (const m of this.calls.values()) {
      if (m.partnerReceived === undefined) {
        notSent++;
        continue;
      }
      if (m.partnerAnswered === undefined || m.resultReceived === undefined) {
        resultNotSeen++;
        continue;
      }
      dispatch.push(m.partnerReceived - m.streamed!);
      resume.push(m.resultReceived - m.partnerAnswered);
    }
    const d = ascending(dispatch);
    const r = ascending(resume);
    return {
      toolCalls: this.calls.size,
      complete: d.length,
      notSent,
      resultNotSeen,
      unknown: this.unknown,
      dispatchP50Ms: percentile(d, 50),
      dispatchP99Ms: percentile(d, 99),
      resumeP50Ms: percentile(r, 50),
      resumeP99Ms: percentile(r, 99),
      dispatchMaxMs: d.length ? d[d.length - 1] : Number.NaN,
      resumeMaxMs: r.length ? r[r.length - 1] : Number.NaN,
    };
  }
}

/** The headline figures of a round of `calls` concurrent calls; the p99s carry the target at its round size. */
export function toolCallFigures(report: ToolCallTimingReport, calls: number, bench: string): BenchFigure[] {
  const target =
    calls === TOOL_GAP_TARGET_CALLS ? { target: { op: '<' as const, value: TOOL_GAP_TARGET_MS } } : {};
  return [
    { bench, figure: 'tool call -> partner request p50', value: report.dispatchP50Ms, unit: 'ms' },
    { bench, figure: 'tool call -> partner request p99', value: report.dispatchP99Ms, unit: 'ms', ...target },
    { bench, figure: 'partner answer -> next model request p50', value: report.resumeP50Ms, unit: 'ms' },
    {
      bench,
      figure: 'partner answer -> next model request p99',
      value: report.resumeP99Ms,
      unit: 'ms',
      ...target,
    },
    { bench, figure: 'tool calls measured', value: report.complete, unit: 'calls' },
  ];
}
