// How much caller audio one media stream may deliver: a carrier streams in real time, so audio that arrives
// faster than the media clock (plus a burst allowance for a network or event-loop stall) is no caller's
// speech, and would grow the call's recording and utterance without limit.
import { TELEPHONY_SAMPLE_RATE } from '../audio/framer';

/** mu-law 8 kHz: one byte a sample. */
const BYTES_PER_MS = TELEPHONY_SAMPLE_RATE / 1000;

export interface InboundAudioBudgetOptions {
  /** Audio that may arrive ahead of the clock, in wall ms (the bucket's size; full at the start). */
  burstMs: number;
  /** Media time runs this many times faster than wall time (MEDIA_TIME_SCALE). */
  timeScale: number;
  /** Wall clock in ms; performance.now() unless a test drives it. */
  now?: () => number;
}

/**
 * A token bucket of mu-law bytes refilled at the media clock's rate: take() a frame's bytes as it arrives, and
 * drop the frame when it is refused. Numbers only, so it costs nothing per frame.
 */
export class InboundAudioBudget {
  private readonly capacity: number;
  private readonly bytesPerWallMs: number;
  private readonly now: () => number;
  private tokens: number;
  private refilledAt: number;

  constructor(options: InboundAudioBudgetOptions) {
    if (!(options.burstMs > 0) || !(options.timeScale > 0)) {
      throw new RangeError('InboundAudioBudget: burstMs and timeScale must be > 0');
    }
    this.bytesPerWallMs = BYTES_PER_MS * options.timeScale;
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
