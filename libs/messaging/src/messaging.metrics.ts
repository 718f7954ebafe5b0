import { Counter, Gauge, Histogram, register } from 'prom-client';

/**
 * Messaging metrics, on prom-client's default registry (one process = one service; the runtime lib sets
 * the `service` default label and serves /metrics). Metrics are created once per process.
 */
function single<T>(name: string, make: () => T): T {
  return (register.getSingleMetric(name) as T | undefined) ?? make();
}

export const rpcClientDuration = single(
  'vap_nats_request_duration_seconds',
  () =>
    new Histogram({
      name: 'vap_nats_request_duration_seconds',
      help: 'Commands sent over NATS: time until the reply, by subject and outcome (ok, error, timeout, unavailable, too_large)',
      labelNames: ['subject', 'outcome'],
      buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    }),
);

export const rpcServerDuration = single(
  'vap_nats_handler_duration_seconds',
  () =>
    new Histogram({
      name: 'vap_nats_handler_duration_seconds',
      help: 'Commands handled by this service: handling time by subject and outcome (ok, error)',
      labelNames: ['subject', 'outcome'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    }),
);

export const outboxPublished = single(
  'vap_outbox_published_total',
  () =>
    new Counter({
      name: 'vap_outbox_published_total',
      help: 'Domain events relayed from the outbox to JetStream',
    }),
);

/** Gauges read at scrape time from whoever registered a source (the relay, the consumers). */
const sources: {
  outboxLag?: () => Promise<number>;
  consumerPending?: () => Promise<Record<string, number>>;
} = {};

export function measureOutboxLagWith(source: (() => Promise<number>) | undefined): void {
  sources.outboxLag = source;
}

export function measureConsumerPendingWith(
  source: (() => Promise<Record<string, number>>) | undefined,
): void {
  sources.consumerPending = source;
}

export const outboxLag = single(
  'vap_outbox_lag_seconds',
  () =>
    new Gauge({
      name: 'vap_outbox_lag_seconds',
      help: 'Age of the oldest outbox event not yet published (0 when the outbox is drained)',
      async collect() {
        if (sources.outboxLag) this.set(await sources.outboxLag().catch(() => 0));
      },
    }),
);

export const eventsHandled = single(
  'vap_events_handled_total',
  () =>
    new Counter({
      name: 'vap_events_handled_total',
      help: 'Domain events taken from JetStream by consumer and outcome (applied, duplicate, skipped, failed)',
      labelNames: ['consumer', 'outcome'],
    }),
);

export const consumerPending = single(
  'vap_jetstream_consumer_pending',
  () =>
    new Gauge({
      name: 'vap_jetstream_consumer_pending',
      help: 'Events waiting for a durable consumer of this service (not yet delivered plus unacknowledged)',
      labelNames: ['consumer'],
      async collect() {
        const pending = await sources.consumerPending?.().catch(() => undefined);
        for (const [consumer, count] of Object.entries(pending ?? {})) this.set({ consumer }, count);
      },
    }),
);
