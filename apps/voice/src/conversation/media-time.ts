// The conversation's media clock: milliseconds of call time since the stream started. In production it is wall
// time; MEDIA_TIME_SCALE (tests, the sandbox) makes it run faster, and every conversation timer (idle reprompt,
// max duration, tool acknowledgement, mark grace) is set in media time so behaviour is the same at any scale. It
// reads the service's Clock (monotonic ms and timers), so a spec can drive it with a ManualClock instead of waiting.
import { Clock, SystemClock } from '@vap/runtime';

/** Media-time clock plus timers that all die with the conversation (no handle outlives a stopped call). */
export class MediaTime {
  private readonly startedAt: number;
  private readonly timers = new Set<() => void>();
  private stopped = false;

  constructor(
    readonly timeScale: number,
    private readonly clock: Clock = new SystemClock(),
  ) {
    if (!(timeScale > 0)) throw new RangeError('MediaTime: timeScale must be > 0');
    this.startedAt = clock.monotonicMs();
  }

  /** Media ms since the conversation started. */
  now(): number {
    return (this.clock.monotonicMs() - this.startedAt) * this.timeScale;
  }

  /**
   * Runs `callback` after `mediaMs` of media time; returns a cancel function. Nothing runs once stopped. Node's
   * timers round a fractional delay and measure from the event loop's cached time, so one can fire up to a couple of
   * milliseconds before its delay has passed on the monotonic reading; such a timer waits out the rest, so a callback
   * never runs before its media time.
   */
  after(mediaMs: number, callback: () => void): () => void {
    if (this.stopped) return () => undefined;
    const dueAt = this.now() + Math.max(0, mediaMs);
    let cancel: () => void;
    const arm = (waitMediaMs: number) => {
      cancel = this.clock.setTimer(waitMediaMs / this.timeScale, () => {
        this.timers.delete(cancel);
        if (this.stopped) return;
        const early = dueAt - this.now();
        if (early > 0) arm(early);
        else callback();
      });
      this.timers.add(cancel);
    };
    arm(Math.max(0, mediaMs));
    return () => {
      cancel();
      this.timers.delete(cancel);
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
    for (const cancel of this.timers) cancel();
    this.timers.clear();
  }
}
