// Scripted provider failures: after N good requests, the next ones (or all later ones) fail the chosen way, so a test can break a
// provider in the middle of a call (the intro and first turns still work).

/** error: an HTTP 500 / an error frame; hang: never answer; close: start answering, then drop the connection. */
export type FailureMode = 'error' | 'hang' | 'close';

export class FailureSwitch {
  private mode: FailureMode | null = null;
  private goodLeft = 0;
  /** Failures left before the endpoint heals by itself (Infinity: until heal()). */
  private failuresLeft = Infinity;
  /** Requests served so far (good or failed). */
  served = 0;

  /** After `after` more good requests, fails the next `times` ones (all of them by default). */
  set(mode: FailureMode, after = 0, times = Infinity): void {
    this.mode = mode;
    this.goodLeft = after;
    this.failuresLeft = times;
  }

  clear(): void {
    this.mode = null;
  }

  /** Whether the next request would fail (without counting one): a provider that is down. */
  get failing(): boolean {
    return this.mode !== null && this.goodLeft === 0;
  }

  /** Counts a request; the failure it must suffer, or null to serve it well. */
  next(): FailureMode | null {
    this.served++;
    if (!this.mode) return null;
    if (this.goodLeft > 0) {
      this.goodLeft--;
      return null;
    }
    const mode = this.mode;
    if (--this.failuresLeft <= 0) this.mode = null;
    return mode;
  }
}
