// What a handoff adds to the turn it happens in, from the caller's side: each call's first turn is the handoff
// (the first agent's model calls handoff_to_<name>, the next agent's model answers), its later turns are the next
// agent's plain answers. A turn's delay is the caller's last speech frame -> the agent's first speech frame.
import { BenchFigure } from '../support/figures';
import { ascending, percentile } from '../support/percentiles';

/**
 * The target: a handoff adds at most one model round to its turn (the round that calls the tool; the next agent's
 * answer is the turn's own round), with a tenth of a round for the platform's own handoff work (the calls service
 * records the handoff and answers the next agent, the conversation swaps agents).
 */
export const HANDOFF_EXTRA_ROUNDS_TARGET = 1.1;

export interface HandoffLatencyReport {
  /** Calls whose handoff turn and at least one plain turn were both answered (the figures cover these). */
  measured: number;
  handoffTurnP50Ms: number;
  plainTurnP50Ms: number;
  /** Per call: handoff turn delay - the mean of its plain turns' delays, ms. */
  extraP50Ms: number;
  extraP99Ms: number;
  /** extraP50Ms in model rounds of `modelRoundMs` (what one model round takes: the fake model's answer time). */
  extraRoundsP50: number;
  extraRoundsP99: number;
}

/** `delays` holds each call's reply delays in turn order (first: the handoff turn). */
export function handoffLatency(
  delays: readonly (readonly number[])[],
  modelRoundMs: number,
): HandoffLatencyReport {
  const handoff: number[] = [];
  const plain: number[] = [];
  const extra: number[] = [];
  for (const call of delays) {
    if (call.length < 2) continue;
    const rest = call.slice(1);
    const mean = rest.reduce((sum, d) => sum + d, 0) / rest.length;
    handoff.push(call[0]);
    plain.push(...rest);
    extra.push(call[0] - mean);
  }
  const e = ascending(extra);
  const p50 = percentile(e, 50);
  const p99 = percentile(e, 99);
  return {
    measured: e.length,
    handoffTurnP50Ms: percentile(ascending(handoff), 50),
    plainTurnP50Ms: percentile(ascending(plain), 50),
    extraP50Ms: p50,
    extraP99Ms: p99,
    extraRoundsP50: p50 / modelRoundMs,
    extraRoundsP99: p99 / modelRoundMs,
  };
}

/** The headline figures of one context mode's round; the p50 in rounds carries the target. */
export function handoffFigures(report: HandoffLatencyReport, bench: string): BenchFigure[] {
  return [
    { bench, figure: 'handoff turn p50', value: report.handoffTurnP50Ms, unit: 'ms' },
    { bench, figure: 'plain turn p50', value: report.plainTurnP50Ms, unit: 'ms' },
    { bench, figure: 'handoff extra p50', value: report.extraP50Ms, unit: 'ms' },
    { bench, figure: 'handoff extra p99', value: report.extraP99Ms, unit: 'ms' },
    {
      bench,
      figure: 'handoff extra p50 in model rounds',
      value: report.extraRoundsP50,
      unit: 'rounds',
      target: { op: '<=', value: HANDOFF_EXTRA_ROUNDS_TARGET },
    },
    { bench, figure: 'handoff extra p99 in model rounds', value: report.extraRoundsP99, unit: 'rounds' },
    { bench, figure: 'calls measured', value: report.measured, unit: 'calls' },
  ];
}
