export interface MessagingOptions {
  /** Service name: the queue group for its commands and the durable-consumer prefix for its events. */
  serviceName: string;
  url: string;
  /**
   * The service's NATS credentials (NATS_USER, default the service name, and NATS_PASSWORD): its user's
   * permissions are natsPermissions(serviceName). No password: connect without credentials.
   */
  user?: string;
  password?: string;
  /**
   * Prefix for every subject and stream name. Empty in production; tests set one per run so that runs
   * sharing a NATS server never see each other's traffic.
   */
  subjectPrefix?: string;
  /** How long a command waits for its reply before it fails as a downstream timeout. */
  requestTimeoutMs?: number;
  /**
   * How long the event stream keeps events (its max age; default 7 days). Applied when the stream is made
   * and to an existing stream at start, so every service of a deployment must use the same value.
   */
  eventRetentionMs?: number;
  /** How often processed-event ids older than the stream's retention are pruned from the inbox (default 1 h). */
  inboxPruneIntervalMs?: number;
  /**
   * False for a service without a Postgres schema (the voice media plane): commands only, no outbox,
   * inbox or event consumers, which all need the service's DataSource. Default true.
   */
  persistence?: boolean;
}

export const DEFAULT_EVENT_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

export const MESSAGING_OPTIONS = Symbol('MESSAGING_OPTIONS');
