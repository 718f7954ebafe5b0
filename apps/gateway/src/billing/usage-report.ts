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
  /** The charges' model tokens (every model and key), and the part on the platform's keys. */
  modelInputTokens: number;
  modelOutputTokens: number;
  platformModelInputTokens: number;
  platformModelOutputTokens: number;
}

/** What a row sums besides its key. */
type UsageSums = Omit<UsageRow, 'key'>;

/** Seconds as minutes to two decimals. */
const minutesOf = (seconds: number) => Math.round((seconds * 100) / 60) / 100;

export function usageFigures(row: UsageSums): UsageFiguresDto {
  return {
    calls: row.calls,
    billed_seconds: row.billedSeconds,
    minutes: minutesOf(row.billedSeconds),
    credits_inr: row.paise / 100,
    platform_speech_billed_seconds: row.platformSpeechSeconds,
    platform_speech_minutes: minutesOf(row.platformSpeechSeconds),
    model_input_tokens: row.modelInputTokens,
    model_output_tokens: row.modelOutputTokens,
    platform_model_input_tokens: row.platformModelInputTokens,
    platform_model_output_tokens: row.platformModelOutputTokens,
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
  const total: UsageSums = {
    calls: 0,
    billedSeconds: 0,
    paise: 0,
    platformSpeechSeconds: 0,
    modelInputTokens: 0,
    modelOutputTokens: 0,
    platformModelInputTokens: 0,
    platformModelOutputTokens: 0,
  };
  for (const r of sorted) {
    for (const part of Object.keys(total) as (keyof UsageSums)[]) total[part] += r[part];
  }
  return {
    buckets: sorted.map((r) => ({ key: r.key, ...usageFigures(r) })),
    totals: usageFigures(total),
  };
}
