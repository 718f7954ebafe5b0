/**
 * How long a report of a call (a transcript line, the end of the stream) is retried before it is given up:
 * long enough to outlast a calls service restart or a NATS failover; bounded, so what a replica holds for
 * reports that cannot be delivered is bounded too.
 */
export const REPORT_RETRY_WINDOW_MS = 5 * 60_000;
