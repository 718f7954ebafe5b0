// The table and figures of a benchmark that compares ways of doing one thing against today's way, measured in
// the same run: per way, its samples' percentiles, and the ratios to the first way's (the baseline).
import { reportFigures } from './figures';
import { ascending, figure, percentile } from './percentiles';

export interface RatioReport {
  /** The benchmark's name in the figures file. */
  bench: string;
  /** The first column's heading (path, plugin). */
  column: string;
  /** Digits of the ms columns. */
  digits: number;
  /** The percentile whose ratio is shown beside the median's (90, 99). */
  tail: 90 | 99;
  /** How a way's median figure is named, and its ratio's. */
  latencyFigure(name: string): string;
  ratioFigure(name: string): string;
}

/** Prints the table and reports the figures; `samples` in ms, the baseline first. */
export function printRatioTable(samples: ReadonlyMap<string, readonly number[]>, report: RatioReport): void {
  const rows = [...samples].map(([name, values]) => {
    const sorted = ascending(values);
    return {
      name,
      n: sorted.length,
      p50: percentile(sorted, 50),
      p90: percentile(sorted, 90),
      p99: percentile(sorted, 99),
    };
  });
  const base = rows[0];
  const tail = `p${report.tail}` as const;
  console.table(
    rows.map((r) => ({
      [report.column]: r.name,
      turns: r.n,
      'p50 ms': figure(r.p50, report.digits),
      'p90 ms': figure(r.p90, report.digits),
      'p99 ms': figure(r.p99, report.digits),
      'p50 / today': figure(r.p50 / base.p50, 2),
      [`${tail} / today`]: figure(r[tail] / base[tail], 2),
    })),
  );
  reportFigures(
    rows.flatMap((r) => [
      { bench: report.bench, figure: report.latencyFigure(r.name), value: r.p50, unit: 'ms' },
      { bench: report.bench, figure: report.ratioFigure(r.name), value: r.p50 / base.p50, unit: 'ratio' },
    ]),
  );
}
