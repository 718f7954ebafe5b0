// The voice service's own view of its outbound pacing, from its Prometheus /metrics: how late each frame left
// against its slot on the call's clock (voice_frame_send_lateness_seconds) and the ticks that found the agent's
// audio not ready (voice_frame_underruns_total). Arrival times in the load generator add its own event-loop lag
// on the same cores; these are what the platform itself did.
import { readMetric } from './live-sessions';
import {
  histogramDelta,
  quantileUpperBoundMs,
  readHistogram,
  type HistogramBuckets,
} from '../support/prometheus-histogram';

export const SEND_LATENESS_METRIC = 'voice_frame_send_lateness_seconds';
export const UNDERRUNS_METRIC = 'voice_frame_underruns_total';

export interface SendPacingSnapshot {
  lateness: HistogramBuckets;
  underruns: number;
}

export interface SendPacing {
  frames: number;
  /** Upper bounds (bucket edges) of the send lateness p50 and p99, ms. */
  latenessP50Ms: number;
  latenessP99Ms: number;
  underruns: number;
}

/** One scrape of every replica's /metrics, summed. */
export async function scrapeSendPacing(metricsUrls: readonly string[]): Promise<SendPacingSnapshot> {
  const texts = await Promise.all(
    metricsUrls.map(async (url) => {
      const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
      if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
      return res.text();
    }),
  );
  const lateness: HistogramBuckets = new Map();
  let underruns = 0;
  for (const text of texts) {
    for (const [bound, count] of readHistogram(text, SEND_LATENESS_METRIC))
      lateness.set(bound, (lateness.get(bound) ?? 0) + count);
    underruns += readMetric(text, UNDERRUNS_METRIC) ?? 0;
  }
  return { lateness, underruns };
}

export function sendPacingBetween(before: SendPacingSnapshot, after: SendPacingSnapshot): SendPacing {
  const lateness = histogramDelta(before.lateness, after.lateness);
  return {
    frames: lateness.get(Infinity) ?? 0,
    latenessP50Ms: quantileUpperBoundMs(lateness, 0.5),
    latenessP99Ms: quantileUpperBoundMs(lateness, 0.99),
    underruns: after.underruns - before.underruns,
  };
}
