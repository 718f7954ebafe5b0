import { Clock } from './clock';

/**
 * The wall clock. Given a start instant (a test-only setting of a service), it reads that instant when created
 * and runs on at real speed from there, so a spec can place a service just before a DST change or midnight.
 */
export class SystemClock extends Clock {
  private readonly offsetMs: number;

  constructor(startAt?: Date) {
    super();
    this.offsetMs = startAt ? startAt.getTime() - Date.now() : 0;
  }

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  monotonicMs(): number {
    return performance.now();
  }

  setTimer(ms: number, callback: () => void): () => void {
    const timer = setTimeout(callback, Math.max(0, ms));
    return () => clearTimeout(timer);
  }
}
