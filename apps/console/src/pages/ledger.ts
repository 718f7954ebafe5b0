// The ledger as the billing page lists, charts and exports it: its transactions, usage per day with the days
// without charges filled in, and the CSV download of exactly what is listed.

export interface Transaction {
  id: string;
  type: string;
  amount_inr: number;
  balance_after_inr: number;
  description: string;
  created_at: string;
  call_id?: string | null;
  browser_session_id?: string | null;
  agent_id?: string | null;
  billed_seconds?: number | null;
  /** A charge's cloud speech providers paid by the platform ([]: none; null: not a charge, or not recorded). */
  platform_speech_providers?: string[] | null;
}

export interface UsageBucket {
  key: string | null;
  minutes: number;
  calls: number;
  credits_inr: number;
}

export const DAY = 86_400_000;
/** A date's UTC day, YYYY-MM-DD. */
export const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/** One CSV cell: always quoted, quotes doubled, a list as its items separated by spaces. */
export function csvCell(value: unknown): string {
  const s =
    value === null || value === undefined ? '' : Array.isArray(value) ? value.join(' ') : String(value);
  // Quoted always; a leading formula character is neutralised so a spreadsheet never runs it.
  const safe = /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** One bar per day of the range, days without charges at zero. */
export function everyDay(from: string, to: string, buckets: UsageBucket[]): { day: string; value: number }[] {
  const byDay = new Map(buckets.flatMap((b) => (b.key === null ? [] : [[b.key, b.credits_inr] as const])));
  const out: { day: string; value: number }[] = [];
  const last = Date.parse(`${to}T00:00:00.000Z`);
  for (let t = Date.parse(`${from}T00:00:00.000Z`); t <= last && out.length < 400; t += DAY) {
    const day = isoDay(new Date(t));
    out.push({ day, value: byDay.get(day) ?? 0 });
  }
  return out;
}

/** The transactions as CSV (RFC 4180 line ends), one header line, then a line each. */
export function transactionsCsv(rows: Transaction[]): string {
  const cols: (keyof Transaction)[] = [
    'created_at',
    'id',
    'type',
    'description',
    'amount_inr',
    'balance_after_inr',
    'call_id',
    'browser_session_id',
    'agent_id',
    'billed_seconds',
    'platform_speech_providers',
  ];
  return [cols.join(','), ...rows.map((r) => cols.map((c) => csvCell(r[c])).join(','))].join('\r\n') + '\r\n';
}
