import { Counter, Gauge, Histogram } from 'prom-client';

/** Attempts by outcome: succeeded, retry (failed, another attempt scheduled) or failed (given up). */
export const deliveryAttempts = new Counter({
  name: 'vap_webhook_delivery_attempts_total',
  help: 'Webhook delivery attempts by outcome (succeeded, retry, failed)',
  labelNames: ['outcome'],
});

export const deliveryLatency = new Histogram({
  name: 'vap_webhook_delivery_duration_seconds',
  help: 'Time a partner endpoint took to answer a delivery',
  labelNames: ['outcome'],
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
});

let depthSource: (() => Promise<Record<string, number>>) | undefined;

/** Registers what the queue-depth gauge reads when scraped (undefined stops it, e.g. at shutdown). */
export function measureQueueDepthWith(source: typeof depthSource): void {
  depthSource = source;
}

export const deliveryQueueDepth = new Gauge({
  name: 'vap_webhook_delivery_queue_depth',
  help: 'Deliveries waiting by state: due (ready to send), scheduled (waiting for a retry), delivering',
  labelNames: ['state'],
  async collect() {
    const depth = await depthSource?.().catch(() => undefined);
    for (const [state, count] of Object.entries(depth ?? {})) this.set({ state }, count);
  },
});
