/** The p-th percentile (0-100) of ascending values by the nearest-rank method; NaN for none. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

/** An ascending copy, for percentile(). */
export function ascending(values: Iterable<number>): number[] {
  return [...values].sort((a, b) => a - b);
}

/** A figure for a table: rounded to `digits`, or '-' when there was nothing to measure. */
export function figure(value: number, digits = 1): number | string {
  return Number.isFinite(value) ? Number(value.toFixed(digits)) : '-';
}
