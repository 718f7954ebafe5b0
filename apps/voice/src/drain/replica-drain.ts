import type { ReadinessCheck } from '@vap/runtime';

/**
 * Whether this replica still takes new media streams. Set once, at SIGTERM: from then on upgrades are
 * refused with 503 and /health/ready fails, so load balancers stop sending carriers here while the live
 * calls finish.
 */
export class ReplicaDrain implements ReadinessCheck {
  readonly name = 'replica';
  private drainingSince: number | null = null;

  get draining(): boolean {
    return this.drainingSince !== null;
  }

  start(now = Date.now()): void {
    this.drainingSince ??= now;
  }

  notReadyReason(): string | null {
    return this.draining ? 'replica is draining: it takes no new media streams' : null;
  }
}
