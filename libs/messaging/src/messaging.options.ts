export interface MessagingOptions {
  /** Service name: the queue group for its commands and the durable-consumer prefix for its events. */
  serviceName: string;
  url: string;
  /**
   * Prefix for every subject and stream name. Empty in production; tests set one per run so that runs
   * sharing a NATS server never see each other's traffic.
   */
  subjectPrefix?: string;
  /** How long a command waits for its reply before it fails as a downstream timeout. */
  requestTimeoutMs?: number;
}

export const MESSAGING_OPTIONS = Symbol('MESSAGING_OPTIONS');
