import type { ReadinessCheck } from '@vap/runtime';

/** One stream's place on the replica, held from its admission until its session finished. */
export interface StreamSlot {
  /** Gives the place back; only the first call counts. */
  release(): void;
}

/**
 * How many media streams this replica serves at once (MAX_LIVE_SESSIONS): every conversation costs CPU on
 * the shared frame clock and speech providers the platform pays for, so past the size it was measured at a
 * replica refuses new streams (closed with STREAM_CLOSE_REPLICA_FULL) and /health/ready fails while it is
 * full, so load balancers send carriers to another replica. A place is taken before the calls service is
 * asked (admissions in flight count), so simultaneous upgrades cannot overshoot the limit.
 */
export class ReplicaCapacity implements ReadinessCheck {
  readonly name = 'capacity';
  private taken = 0;

  constructor(readonly limit: number) {}

  get inUse(): number {
    return this.taken;
  }

  get full(): boolean {
    return this.taken >= this.limit;
  }

  /** A place for one more stream, or null when the replica is full. */
  reserve(): StreamSlot | null {
    if (this.full) return null;
    this.taken++;
    let held = true;
    return {
      release: () => {
        if (!held) return;
        held = false;
        this.taken--;
      },
    };
  }

  notReadyReason(): string | null {
    return this.full
      ? `replica is full: it serves ${this.taken} media streams, MAX_LIVE_SESSIONS is ${this.limit}`
      : null;
  }
}
