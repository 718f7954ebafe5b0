import { LlmError } from './llm-error';

/**
 * Aborts a request when the server stays silent too long: armed only while we wait on the network (for the
 * answer's headers, then for each body chunk), never while the caller is busy with what it already got.
 * One signal for undici that also follows the caller's own.
 */
export class SilenceWatchdog {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | null = null;
  readonly signal: AbortSignal;

  constructor(
    private readonly timeoutMs: number,
    private readonly what: string,
    callerSignal?: AbortSignal,
  ) {
    this.signal = callerSignal
      ? AbortSignal.any([callerSignal, this.controller.signal])
      : this.controller.signal;
  }

  get fired(): boolean {
    return this.controller.signal.aborted;
  }

  arm(): void {
    this.disarm();
    this.timer = setTimeout(() => {
      this.timer = null;
      this.controller.abort(this.timeoutError());
    }, this.timeoutMs);
  }

  disarm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
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
