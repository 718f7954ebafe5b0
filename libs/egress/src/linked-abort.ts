/**
 * An AbortController for one outbound request that also aborts when a longer-lived signal does (the call, the
 * line being spoken), until release(). Used instead of `AbortSignal.any` on hot paths: Node holds the signals
 * it combines through WeakRefs, which only full garbage collections clear, so every request's signals outlived
 * the young generation and were promoted; on a busy voice replica that was one of the largest sources of the
 * old-generation collections whose pauses hold every call's next audio frame.
 */
export class LinkedAbortController {
  private readonly controller = new AbortController();
  private readonly onParentAbort: (() => void) | undefined;

  constructor(private readonly parent?: AbortSignal) {
    if (!parent) return;
    if (parent.aborted) {
      this.controller.abort(parent.reason);
      return;
    }
    const onParentAbort = () => this.controller.abort(parent.reason);
    parent.addEventListener('abort', onParentAbort, { once: true });
    this.onParentAbort = onParentAbort;
  }

  /** Aborted by abort() or with the parent signal (then with its reason). */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  abort(reason?: unknown): void {
    this.controller.abort(reason);
    this.release();
  }

  /** The request is over: stop following the parent signal (which may live much longer). Idempotent. */
  release(): void {
    if (this.onParentAbort) this.parent!.removeEventListener('abort', this.onParentAbort);
  }
}
