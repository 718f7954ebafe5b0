/**
 * The one time source of a service: what instant it is, a monotonic reading for measuring spans, and timers.
 * Production injects SystemClock; tests inject ManualClock and move time themselves instead of waiting.
 */
export abstract class Clock {
  /** The current instant. */
  abstract now(): Date;

  /** Milliseconds on a clock that never goes back (performance.now() in production): for measuring spans. */
  abstract monotonicMs(): number;

  /** Runs `callback` once `ms` have passed on this clock; returns a cancel function. */
  abstract setTimer(ms: number, callback: () => void): () => void;
}
