// The figures a benchmark reports to `npm run bench`: each run.ts prints its own tables as before and, when the
// runner asks (BENCH_FIGURES_FILE), also appends its headline figures there as JSON lines, with the target each
// one is held to, so one table and one results file cover every benchmark.
import { appendFileSync } from 'node:fs';

export interface FigureTarget {
  /** The figure meets the target when `value <op> target`. */
  op: '<' | '<=' | '>=' | '>';
  value: number;
}

export interface BenchFigure {
  /** Which benchmark (and variant) measured it, e.g. `webhooks (200 events/s)`. */
  bench: string;
  figure: string;
  value: number;
  unit: string;
  target?: FigureTarget;
}

export const FIGURES_FILE_ENV = 'BENCH_FIGURES_FILE';

/** Hands the figures to the runner when one asked for them; a benchmark run alone just prints its tables. */
export function reportFigures(figures: BenchFigure[]): void {
  const file = process.env[FIGURES_FILE_ENV];
  if (!file || figures.length === 0) return;
  appendFileSync(file, figures.map((f) => JSON.stringify(f)).join('\n') + '\n');
}

/** Whether a figure meets its target (undefined without one, false when it could not be measured). */
export function meetsTarget(figure: BenchFigure): boolean | undefined {
  const { target, value } = figure;
  if (!target) return undefined;
  if (!Number.isFinite(value)) return false;
  switch (target.op) {
    case '<':
      return value < target.value;
    case '<=':
      return value <= target.value;
    case '>=':
      return value >= target.value;
    case '>':
      return value > target.value;
  }
}

/**
 * How the figure stands against its target as one number, above 1 when it is better than the target: value /
 * target for "at least" targets, target / value for "at most" ones (0 counts as exactly met for an "at most 0").
 */
export function targetRatio(figure: BenchFigure): number | undefined {
  const { target, value } = figure;
  if (!target || !Number.isFinite(value)) return undefined;
  if (target.op === '>=' || target.op === '>') return target.value === 0 ? undefined : value / target.value;
  if (value === 0) return target.value === 0 ? 1 : Number.POSITIVE_INFINITY;
  return target.value / value;
}
