import { Clock } from './clock';

interface Timer {
  dueAt: number;
  seq: number;
  callback: () => void;
}

/**
 * A clock that moves only when a test moves it: advance(ms) runs the timers that fall due on the way, in due
 * order (each sees now() at its own due time), including timers they set that fall due within the same advance.
 */
export class ManualClock extends Clock {
  private ms: number;
  private monotonic = 0;
  private seq = 0;
  private readonly timers = new Set<Timer>();

  constructor(start: Date = new Date()) {
    super();
    this.ms = start.getTime();
  }

  now(): Date {
    return new Date(this.ms);
  }

  monotonicMs(): number {
    return this.monotonic;
  }

  setTimer(ms: number, callback: () => void): () => void {
    const timer: Timer = { dueAt: this.monotonic + Math.max(0, ms), seq: this.seq++, callback };
    this.timers.add(timer);
    return () => this.timers.delete(timer);
  }

  /** Moves time forward by `ms`, running every timer due by then. */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError('ManualClock: advance by a non-negative number of ms');
    const target = this.monotonic + ms;
    for (let next = this.nextDue(target); next; next = this.nextDue(target)) {
      this.timers.delete(next);
      this.step(next.dueAt - this.monotonic);
      next.callback();
    }
    this.step(target - this.monotonic);
  }

  /** Jumps the wall instant to `date` (forward or back); the monotonic reading and timers stay where they are. */
  set(date: Date): void {
    this.ms = date.getTime();
  }

  /** How many timers are waiting. */
  get pendingTimers(): number {
    return this.timers.size;
  }

  private step(ms: number): void {
    this.monotonic += ms;
    this.ms += ms;
  }

  private nextDue(by: number): Timer | undefined {
    let next: Timer | undefined;
    for (const t of this.timers) {
      if (t.dueAt > by) continue;
      if (!next || t.dueAt < next.dueAt || (t.dueAt === next.dueAt && t.seq < next.seq)) next = t;
    }
    return next;
  }
}
