// Scripted provider failures: after N good requests, every later one fails the chosen way, so a test can break a
// provider in the middle of a call (the intro and first turns still work).

/** error: an HTTP 500 / an error frame; hang: never answer; close: start answering, then drop the connection. */
export type FailureMode = 'error' | 'hang' | 'close';

export class FailureSwitch {
  private mode: FailureMode | null = null;
  private goodLeft = 0;
  /** Requests served so far (good or failed). */
  served = 0;

  /** Fails every request after `after` more good ones. */
  set(mode: FailureMode, after = 0): void {
    this.mode = mode;
    this.goodLeft = after;
  }

  clear(): void {
    this.mode = null;
  }

  /** Counts a request; the failure it must suffer, or null to serve it well. */
  next(): FailureMode | null {
    this.served++;
    if (!this.mode) return null;
    if (this.goodLeft > 0) {
      this.goodLeft--;
      return null;
    }
    return this.mode;
  }
}
