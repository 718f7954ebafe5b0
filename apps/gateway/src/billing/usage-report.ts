import { UsageBucketDto, UsageFiguresDto } from '@vap/api';

/** One group's sums as the ledger query gives them: integers (paise, seconds), so totals add up exactly. */
export interface UsageRow {
  key: string | null;
  calls: number;
  billedSeconds: number;
  /** Charged paise, as a positive sum. */
  paise: number;
  /** The billed seconds of the charges that name a platform-paid speech provider (a part of billedSeconds). */
  platformSpeechSeconds: number;
}

/** Seconds as minutes to two decimals. */
const minutesOf = (seconds: number) => Math.round((seconds * 100) / 60) / 100;

export function usageFigures(row: Omit<UsageRow, 'key'>): UsageFiguresDto {
  return {
    calls: row.calls,
    billed_seconds: row.billedSeconds,
    minutes: minutesOf(row.billedSeconds),
    credits_inr: row.paise / 100,
    platform_speech_billed_seconds: row.platformSpeechSeconds,
    platform_speech_minutes: minutesOf(row.platformSpeechSeconds),
  };
}

/**
 * The buckets in key order (the ungrouped ones, key null, last) and the totals, summed from the rows'
 * integers rather than from the buckets' rounded minutes and rupees (platform speech minutes likewise).
 */
export function usageReport(rows: UsageRow[]): { buckets: UsageBucketDto[]; totals: UsageFiguresDto } {
  const sorted = [...rows].sort((a, b) =>
    a.key === b.key ? 0 : a.key === null ? 1 : b.key === null ? -1 : a.key < b.key ? -1 : 1,
  );
  const total = { calls: 0, billedSeconds: 0, paise: 0, platformSpeechSeconds: 0 };
  for (const r of sorted) {
    total.calls += r.calls;
    total.billedSeconds += r.billedSeconds;
    total.paise += r.paise;
    total.platformSpeechSeconds += r.platformSpeechSeconds;
  }
  return {
    buckets: sorted.map((r) => ({ key: r.key, ...usageFigures(r) })),
    totals: usageFigures(total),
  };
}
