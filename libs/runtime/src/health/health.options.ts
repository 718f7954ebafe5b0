import type { ServiceName } from '@vap/contracts';

export interface HealthOptions {
  /** Services that must answer a NATS ping for this one to be ready (the gateway lists them all). */
  peers?: ServiceName[];
}
export const HEALTH_OPTIONS = Symbol('HEALTH_OPTIONS');
