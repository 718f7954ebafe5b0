// How much one media stream may deliver: a carrier streams in real time, so caller audio that arrives faster
// than the media clock (plus a burst allowance for a network or event-loop stall) is no caller's speech, and would
// grow the call's recording and utterance without limit; messages far beyond that rate only cost the replica CPU.
import { TELEPHONY_SAMPLE_RATE } from '../audio/framer';

/** mu-law 8 kHz: one byte a sample. */
export const MULAW_BYTES_PER_MS = TELEPHONY_SAMPLE_RATE / 1000;

export interface MediaClockBudgetOptions {
  /** What may arrive ahead of the clock, in wall ms of it (the bucket's size; full at the start). */
  burstMs: number;
  /** Bytes one ms of media time earns; mu-law's 8 unless given. */
  bytesPerMediaMs?: number;
  /** Media time runs this many times faster than wall time (MEDIA_TIME_SCALE). */
  timeScale: number;
  /** Wall clock in ms; performance.now() unless a test drives it. */
  now?: () => number;
}

/**
 * A token bucket of bytes refilled at the media clock's rate (mu-law audio by default): take() a frame's bytes
 * as it arrives, and drop the frame when it is refused. Numbers only, so it costs nothing per frame.
 */
export class MediaClockBudget {
  private readonly capacity: number;
  private readonly bytesPerWallMs: number;
  private readonly now: () => number;
  private tokens: number;
  private refilledAt: number;

  constructor(options: MediaClockBudgetOptions) {
    if (!(options.burstMs > 0) || !(options.timeScale > 0)) {
      throw new RangeError('MediaClockBudget: burstMs and timeScale must be > 0');
    }
    this.bytesPerWallMs = (options.bytesPerMediaMs ?? MULAW_BYTES_PER_MS) * options.timeScale;
    this.capacity = options.burstMs * this.bytesPerWallMs;
    this.now = options.now ?? (() => performance.now());
    this.tokens = this.capacity;
    this.refilledAt = this.now();
  }

  /** True when `bytes` of audio fit the budget (and are taken from it); false when they must be dropped. */
  take(bytes: number): boolean {
    const now = this.now();
    this.tokens = Math.min(this.capacity, this.tokens + (now - this.refilledAt) * this.bytesPerWallMs);
    this.refilledAt = now;
    if (bytes > this.tokens) return false;
    this.tokens -= bytes;
    return true;
  }
}
