// The simulated carrier's media clock: one timer for every simulated call, firing on a schedule computed from its
// start (timer lateness never accumulates), as a carrier sends each call's audio in real time. A real carrier's
// calls each run on their own phase, so the clock ticks once a slot (1 ms) and serves the calls of that phase:
// the voice service gets an even stream of caller frames, not every call's frame in the same millisecond.
import { FRAME_MS } from '@vap/media';

export type CarrierTick = (tickIndex: number) => void;

export class CarrierClock {
  private readonly phases: Set<CarrierTick>[];
  private timer: NodeJS.Timeout | undefined;
  private startedAt = 0;
  /** The next slot to serve, counted from the start. */
  private slotIndex = 0;
  /** Times this process's event loop made the clock miss a whole period (the load generator was overloaded). */
  stalls = 0;
  /** Period ticks served (each slot of phase 0 counts one). */
  ticks = 0;

  constructor(
    private readonly periodMs = FRAME_MS,
    private readonly slotMs = 1,
  ) {
    const count = Math.max(1, Math.round(periodMs / slotMs));
    this.phases = Array.from({ length: count }, () => new Set<CarrierTick>());
  }

  /** How many phases a period has (the offsets `subscribe` takes). */
  get phaseCount(): number {
    return this.phases.length;
  }

  /**
   * Calls `listener` once a period, `phase` slots after each period starts, until the returned function is
   * called. Its tick index counts periods since the start.
   */
  subscribe(listener: CarrierTick, phase = 0): () => void {
    const set = this.phases[((phase % this.phases.length) + this.phases.length) % this.phases.length];
    set.add(listener);
    return () => set.delete(listener);
  }

  start(): void {
    if (this.timer !== undefined) return;
    this.startedAt = performance.now();
    this.slotIndex = 0;
    this.schedule();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    const next = this.startedAt + this.slotIndex * this.slotMs;
    this.timer = setTimeout(() => this.run(), Math.max(0, next - performance.now()));
  }

  private run(): void {
    const count = this.phases.length;
    const due = Math.floor((performance.now() - this.startedAt) / this.slotMs);
    // More than a period behind: skip the missed slots instead of bursting them, and count the stall.
    if (due >= this.slotIndex + count) {
      this.stalls++;
      this.slotIndex = due;
    }
    // Within a period: serve each slot reached, every phase at most once.
    while (this.slotIndex <= due) {
      const phase = this.slotIndex % count;
      const tickIndex = Math.floor(this.slotIndex / count);
      if (phase === 0) this.ticks++;
      for (const listener of this.phases[phase]) listener(tickIndex);
      this.slotIndex++;
    }
    this.schedule();
  }
}
