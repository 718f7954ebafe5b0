import { LinkedAbortController } from '@vap/egress';
import { LlmError } from './llm-error';

/**
 * Aborts a request when the server stays silent too long: armed only while we wait on the network (for the
 * answer's headers, then for each body chunk), never while the caller is busy with what it already got.
 * One signal for undici that also follows the caller's own.
 */
export class SilenceWatchdog {
  private readonly controller: LinkedAbortController;
  private timer: NodeJS.Timeout | null = null;
  private expired = false;

  constructor(
    private readonly timeoutMs: number,
    private readonly what: string,
    callerSignal?: AbortSignal,
  ) {
    this.controller = new LinkedAbortController(callerSignal);
  }

  /** Aborted when the server stays silent too long or the caller's signal aborts. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The server's silence aborted the request (not the caller). */
  get fired(): boolean {
    return this.expired;
  }

  arm(): void {
    this.disarm();
    this.timer = setTimeout(() => {
      this.timer = null;
      this.expired = true;
      this.controller.abort(this.timeoutError());
    }, this.timeoutMs);
  }

  disarm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** The request is over: disarmed, and the caller's signal no longer followed. */
  release(): void {
    this.disarm();
    this.controller.release();
  }

  timeoutError(): LlmError {
    return new LlmError(`${this.what} sent nothing for ${this.timeoutMs} ms`, 'timeout');
  }

  /** The body's chunks, with the watchdog armed while each one is awaited. */
  async *watch<T>(body: AsyncIterable<T>): AsyncGenerator<T, void, undefined> {
    const it = body[Symbol.asyncIterator]();
    try {
      for (;;) {
        this.arm();
        const next = await it.next();
        this.disarm();
        if (next.done) return;
        yield next.value;
      }
    } finally {
      this.disarm();
    }
  }
}
