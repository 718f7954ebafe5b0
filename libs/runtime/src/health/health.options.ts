import type { ServiceName } from '@vap/messages';

export interface HealthOptions {
  /** Services that must answer a NATS ping for this one to be ready (the gateway lists them all). */
  peers?: ServiceName[];
  /** False for a service without a Postgres schema: readiness does not ping a database. Default true. */
  database?: boolean;
  /**
   * The service's own readiness conditions (e.g. a draining replica): each answers null when ready, else
   * why not.
   */
  checks?: ReadinessCheck[];
}

export interface ReadinessCheck {
  name: string;
  notReadyReason(): string | null;
  /** What readiness reports of a ready check besides `up` (a degraded engine the replica works around). */
  detail?(): Record<string, unknown> | undefined;
}
export const HEALTH_OPTIONS = Symbol('HEALTH_OPTIONS');
