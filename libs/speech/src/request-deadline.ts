import { LinkedAbortController } from '@vap/egress';
import { ProviderTimeout } from './provider-error';

/**
 * A provider request's deadline, combined with the caller's signal (barge-in, call ended). It can be paused and
 * re-armed, so a streamed answer is timed only while we wait on the provider, not while the pipeline consumes
 * what it already has.
 */
export class RequestDeadline {
  private readonly controller: LinkedAbortController;
  private timer: NodeJS.Timeout | undefined;
  private expired: ProviderTimeout | undefined;

  constructor(
    private readonly what: string,
    private readonly ms: number,
    private readonly callerSignal?: AbortSignal,
  ) {
    this.controller = new LinkedAbortController(callerSignal);
    this.arm();
  }

  /** Aborted when the deadline passes or the caller's signal aborts. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The timeout error when the deadline passed, else undefined. */
  get timeout(): ProviderTimeout | undefined {
    return this.expired;
  }

  /** The caller gave up (not a provider failure). */
  get callerAborted(): boolean {
    return this.callerSignal?.aborted === true;
  }

  /** Starts (or restarts) the clock. */
  arm(): void {
    this.pause();
    this.timer = setTimeout(() => {
      this.expired = new ProviderTimeout(this.what, this.ms);
      this.controller.abort(this.expired);
    }, this.ms);
    this.timer.unref();
  }

  pause(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** The request is over: no deadline, and the caller's signal no longer followed. */
  release(): void {
    this.pause();
    this.controller.release();
  }
}
