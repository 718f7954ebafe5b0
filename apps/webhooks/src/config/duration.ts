const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `250ms`, `10s`, `5m`, `2h`, `5d` (a bare number is seconds) → milliseconds; null when unreadable. */
export function parseDuration(raw: string): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(raw);
  if (!m) return null;
  return Math.round(Number(m[1]) * UNITS[m[2] ?? 's']);
}

/** A comma-separated list of durations; null when any entry is unreadable. An empty string: no retries. */
export function parseDurationList(raw: string): number[] | null {
  if (raw.trim() === '') return [];
  const out: number[] = [];
  for (const part of raw.split(',')) {
    const ms = parseDuration(part);
    if (ms === null) return null;
    out.push(ms);
  }
  return out;
}
