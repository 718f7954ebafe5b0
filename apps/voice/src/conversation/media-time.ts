// The conversation's media clock: milliseconds of call time since the stream started. In production it is wall
// time; MEDIA_TIME_SCALE (tests, the sandbox) makes it run faster, and every conversation timer (idle reprompt,
// max duration, tool acknowledgement, mark grace) is set in media time so behaviour is the same at any scale.

/** Media-time clock plus timers that all die with the conversation (no handle outlives a stopped call). */
export class MediaTime {
  private readonly startedAt = performance.now();
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(readonly timeScale: number) {
    if (!(timeScale > 0)) throw new RangeError('MediaTime: timeScale must be > 0');
  }

  /** Media ms since the conversation started. */
  now(): number {
    return (performance.now() - this.startedAt) * this.timeScale;
  }

  /**
   * Runs `callback` after `mediaMs` of media time; returns a cancel function. Nothing runs once stopped. Node's
   * timers round a fractional delay and measure from the event loop's cached time, so one can fire up to a couple of
   * milliseconds before its delay has passed on performance.now(); such a timer waits out the rest, so a callback
   * never runs before its media time.
   */
  after(mediaMs: number, callback: () => void): () => void {
    if (this.stopped) return () => undefined;
    const dueAt = this.now() + Math.max(0, mediaMs);
    let timer: NodeJS.Timeout;
    const arm = (waitMediaMs: number) => {
      timer = setTimeout(() => {
        this.timers.delete(timer);
        if (this.stopped) return;
        const early = dueAt - this.now();
        if (early > 0) arm(early);
        else callback();
      }, waitMediaMs / this.timeScale);
      this.timers.add(timer);
    };
    arm(Math.max(0, mediaMs));
    return () => {
      clearTimeout(timer);
      this.timers.delete(timer);
    };
  }

  /** Resolves after `mediaMs` of media time, or at once when the signal aborts. */
  sleep(mediaMs: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const onAbort = () => {
        cancel();
        resolve();
      };
      const cancel = this.after(mediaMs, () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      });
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Cancels every pending timer; later `after` calls do nothing. */
  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
