// Prometheus histograms as the services expose them on /metrics: cumulative buckets, read and compared.

/** A histogram's cumulative bucket counts by upper bound (seconds; Infinity for +Inf), summed over series. */
export type HistogramBuckets = Map<number, number>;

/** Reads `name`'s buckets from a /metrics exposition, summed over its series, or only those with `label`. */
export function readHistogram(
  exposition: string,
  name: string,
  label?: { name: string; value: string },
): HistogramBuckets {
  const buckets: HistogramBuckets = new Map();
  const prefix = `${name}_bucket{`;
  const wanted = label ? `${label.name}="${label.value}"` : undefined;
  for (const line of exposition.split('\n')) {
    if (!line.startsWith(prefix)) continue;
    if (wanted && !line.slice(0, line.lastIndexOf('}')).includes(wanted)) continue;
    const le = /le="([^"]+)"/.exec(line)?.[1];
    const count = Number(
      line
        .slice(line.lastIndexOf('}') + 1)
        .trim()
        .split(' ')[0],
    );
    if (le === undefined || !Number.isFinite(count)) continue;
    const bound = le === '+Inf' ? Infinity : Number(le);
    buckets.set(bound, (buckets.get(bound) ?? 0) + count);
  }
  return buckets;
}

/** What was observed between two scrapes. */
export function histogramDelta(before: HistogramBuckets, after: HistogramBuckets): HistogramBuckets {
  const delta: HistogramBuckets = new Map();
  for (const [bound, count] of after) delta.set(bound, count - (before.get(bound) ?? 0));
  return delta;
}

/**
 * The upper bound of the bucket holding the q-th quantile (0-1), in ms: the quantile is at most this. NaN when
 * nothing was observed.
 */
export function quantileUpperBoundMs(buckets: HistogramBuckets, q: number): number {
  const bounds = [...buckets.keys()].sort((a, b) => a - b);
  const total = buckets.get(Infinity) ?? 0;
  if (total <= 0) return Number.NaN;
  for (const bound of bounds) {
    if ((buckets.get(bound) ?? 0) >= q * total) return bound * 1000;
  }
  return Infinity;
}
