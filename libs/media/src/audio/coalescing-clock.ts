// One timer for every call's pacing clock. A replica paces each live call's outbound audio on its own 20 ms
// schedule; with a Node timer per call, 200 calls are 10,000 timer callbacks a second, each its own macrotask.
// Here timers due within the same millisecond share one bucket and one wake-up, so the event loop wakes at most
// once a millisecond whatever the number of calls, and each call keeps its own phase (no burst of every call's
// frame on the same tick).

import type { ClockSource } from './frame-clock';

interface Entry {
  callback: () => void;
  cancelled: boolean;
}

export interface CoalescingClockOptions {
  /** Width of one bucket in ms: a timer may fire up to half of it early or late. */
  granularityMs?: number;
  /** Monotonic ms; performance.now() by default. */
  now?: () => number;
}

/** Emptied buckets kept for reuse, at most: a wake-up serves a millisecond's buckets, a handful. */
const MAX_SPARE_BUCKETS = 64;

/**
 * A ClockSource whose timers are grouped by due time into buckets `granularityMs` wide (1 ms by default), all
 * served by a single underlying Node timer armed for the earliest bucket. A callback that throws does not keep
 * the others in its bucket from running; its error is rethrown once the bucket is done, as a throwing Node timer
 * callback's would be.
 */
export class CoalescingClock implements ClockSource {
  private readonly granularityMs: number;
  private readonly clockNow: () => number;
  private readonly buckets = new Map<number, Entry[]>();
  /** Emptied buckets, used again: every call's clock sets a timer each 20 ms, each slot would be a new array. */
  private readonly spareBuckets: Entry[][] = [];
  /** Bucket keys (slot numbers), a binary min-heap. */
  private readonly heap: number[] = [];
  private timer: NodeJS.Timeout | undefined;
  private armedFor = Infinity;
  /** While buckets run: the last slot this wake-up serves (a timer set for it then waits for the next one). */
  private serving: number | null = null;
  /** The underlying timer's callback, made once (it is armed up to a thousand times a second). */
  private readonly onTimer = () => this.run();
  /** Underlying timer wake-ups so far (for tests and metrics). */
  wakeUps = 0;

  constructor(options: CoalescingClockOptions = {}) {
    this.granularityMs = options.granularityMs ?? 1;
    if (!(this.granularityMs > 0)) throw new RangeError('CoalescingClock: granularityMs must be > 0');
    this.clockNow = options.now ?? (() => performance.now());
  }

  now(): number {
    return this.clockNow();
  }

  setTimer(callback: () => void, delayMs: number): unknown {
    const entry: Entry = { callback, cancelled: false };
    let slot = Math.round((this.clockNow() + Math.max(0, delayMs)) / this.granularityMs);
    // Set from a running callback for a slot being served now: the next wake-up, as a zero-delay Node timer set
    // from a timer callback runs on the next turn of the loop (and a callback that keeps doing so cannot spin).
    if (this.serving !== null && slot <= this.serving) slot = this.serving + 1;
    const bucket = this.buckets.get(slot);
    if (bucket) {
      bucket.push(entry);
    } else {
      const fresh = this.spareBuckets.pop() ?? [];
      fresh.push(entry);
      this.buckets.set(slot, fresh);
      this.push(slot);
      if (this.serving === null && slot < this.armedFor) this.arm();
    }
    return entry;
  }

  clearTimer(handle: unknown): void {
    // Left in its bucket and skipped when the bucket runs: removal from an array would cost more than the skip.
    (handle as Entry).cancelled = true;
  }

  /**
   * Runs the buckets that are due now, if any, without waiting for the underlying timer. Node runs timers once
   * per turn of its event loop, after all the I/O callbacks ready in that turn: under load (200 calls' media
   * arriving, provider answers being resampled) one turn can take tens of milliseconds and every frame due
   * meanwhile leaves late. I/O callbacks call this as a checkpoint, so due frames leave between them. Costs one
   * clock read when nothing is due; does nothing from inside a running bucket.
   */
  catchUp(): void {
    if (this.serving !== null || this.heap.length === 0) return;
    if (this.heap[0] > Math.round(this.clockNow() / this.granularityMs)) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    try {
      this.run();
    } catch (err) {
      // A pacing callback's failure is not the checkpoint caller's: it surfaces as the timer's would have.
      setImmediate(() => {
        throw err;
      });
    }
  }

  /** Timers waiting (cancelled ones included until their bucket is due). */
  get pending(): number {
    let count = 0;
    for (const bucket of this.buckets.values()) count += bucket.length;
    return count;
  }

  private arm(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    const slot = this.heap[0];
    if (slot === undefined) {
      this.timer = undefined;
      this.armedFor = Infinity;
      return;
    }
    this.armedFor = slot;
    const delay = Math.max(0, slot * this.granularityMs - this.clockNow());
    this.timer = setTimeout(this.onTimer, delay);
  }

  private run(): void {
    this.timer = undefined;
    this.armedFor = Infinity;
    this.wakeUps++;
    let error: unknown;
    let failed = false;
    // Half a bucket of tolerance: Node's timers run on a millisecond clock, and a bucket due a fraction of a
    // millisecond from now is served in this wake-up rather than by a zero-delay timer of its own.
    const horizon = Math.round(this.clockNow() / this.granularityMs);
    this.serving = horizon;
    while (this.heap.length > 0 && this.heap[0] <= horizon) {
      const slot = this.pop();
      const bucket = this.buckets.get(slot)!;
      this.buckets.delete(slot);
      for (let i = 0; i < bucket.length; i++) {
        const entry = bucket[i];
        if (entry.cancelled) continue;
        entry.cancelled = true;
        try {
          entry.callback();
        } catch (err) {
          if (!failed) error = err;
          failed = true;
        }
      }
      bucket.length = 0;
      if (this.spareBuckets.length < MAX_SPARE_BUCKETS) this.spareBuckets.push(bucket);
    }
    this.serving = null;
    // Callbacks set new timers as they ran (a pacing clock sets its next tick); arm for the earliest now.
    this.arm();
    if (failed) throw error;
  }

  private push(slot: number): void {
    const heap = this.heap;
    let i = heap.push(slot) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (heap[parent] <= slot) break;
      heap[i] = heap[parent];
      i = parent;
    }
    heap[i] = slot;
  }

  private pop(): number {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop()!;
    if (heap.length > 0) {
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        if (left >= heap.length) break;
        const right = left + 1;
        const child = right < heap.length && heap[right] < heap[left] ? right : left;
        if (heap[child] >= last) break;
        heap[i] = heap[child];
        i = child;
      }
      heap[i] = last;
    }
    return top;
  }
}

/** The process's one pacing clock: every call's FrameClock on this replica shares its wake-ups. */
export const sharedPacingClock = new CoalescingClock();
