// The simulated carrier's media clock: one timer for every simulated call, firing each 20 ms on a schedule
// computed from its start (timer lateness never accumulates), as a carrier sends each call's audio in real time.
import { FRAME_MS } from '@vap/media';

export type CarrierTick = (tickIndex: number) => void;

export class CarrierClock {
  private readonly listeners = new Set<CarrierTick>();
  private timer: NodeJS.Timeout | undefined;
  private startedAt = 0;
  private tickIndex = 0;
  /** Times this process's event loop made the clock miss a whole period (the load generator was overloaded). */
  stalls = 0;
  /** Ticks fired. */
  ticks = 0;

  constructor(private readonly periodMs = FRAME_MS) {}

  /** Calls `listener` on every tick until the returned function is called. */
  subscribe(listener: CarrierTick): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  start(): void {
    if (this.timer !== undefined) return;
    this.startedAt = performance.now();
    this.tickIndex = 0;
    this.schedule();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    const next = this.startedAt + this.tickIndex * this.periodMs;
    this.timer = setTimeout(() => this.tick(), Math.max(0, next - performance.now()));
  }

  private tick(): void {
    this.ticks++;
    for (const listener of this.listeners) listener(this.tickIndex);
    this.tickIndex++;
    // More than a period behind: skip the missed slots instead of bursting them, and count the stall.
    const due = Math.floor((performance.now() - this.startedAt) / this.periodMs) + 1;
    if (due > this.tickIndex + 1) {
      this.stalls++;
      this.tickIndex = due - 1;
    }
    this.schedule();
  }
}
