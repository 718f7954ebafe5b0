// The voice service's own count of live media sessions, from its Prometheus /metrics.

/** The gauge the voice service exports (and its HPA scales on). */
export const LIVE_SESSIONS_METRIC = 'voice_live_sessions';

/**
 * The value of a metric in Prometheus text exposition: the sum over its label sets (one series per replica
 * process, or none with labels). Undefined when the metric is absent.
 */
export function readMetric(exposition: string, name: string): number | undefined {
  let total: number | undefined;
  for (const line of exposition.split('\n')) {
    if (!line.startsWith(name)) continue;
    const rest = line.slice(name.length);
    if (rest[0] !== ' ' && rest[0] !== '{') continue; // another metric sharing the prefix
    const value = Number(
      rest
        .slice(rest[0] === '{' ? rest.lastIndexOf('}') + 1 : 0)
        .trim()
        .split(' ')[0],
    );
    if (Number.isFinite(value)) total = (total ?? 0) + value;
  }
  return total;
}

/** Polls /metrics while a round runs and keeps the highest and latest live-session counts. */
export class LiveSessionsWatcher {
  private timer: NodeJS.Timeout | undefined;
  private inFlight = false;
  peak = 0;
  latest: number | undefined;
  /** Scrapes that failed or lacked the gauge. */
  misses = 0;

  /**
   * Once a second: every call of a round overlaps every other for seconds, so the peak is seen, while each
   * scrape costs the voice process a whole /metrics rendering (scraped four times a second it was a sixth of
   * what the process allocated in a round; Prometheus scrapes every 15 s or more).
   */
  constructor(
    private readonly metricsUrl: string,
    private readonly intervalMs = 1000,
  ) {}

  start(): void {
    this.peak = 0;
    this.timer = setInterval(() => void this.scrape(), this.intervalMs);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** One scrape now; resolves with the gauge (undefined when it could not be read). */
  async scrape(): Promise<number | undefined> {
    if (this.inFlight) return this.latest;
    this.inFlight = true;
    try {
      const res = await fetch(this.metricsUrl, { signal: AbortSignal.timeout(2000) });
      const value = res.ok ? readMetric(await res.text(), LIVE_SESSIONS_METRIC) : undefined;
      if (value === undefined) this.misses++;
      else {
        this.latest = value;
        this.peak = Math.max(this.peak, value);
      }
      return value;
    } catch {
      this.misses++;
      return undefined;
    } finally {
      this.inFlight = false;
    }
  }
}
