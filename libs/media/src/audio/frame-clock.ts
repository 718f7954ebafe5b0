// Outbound pacing: carriers play what they receive as it arrives, so the agent's speech must leave in 20 ms
// frames on a steady clock: no bursts (the carrier's jitter buffer overflows) and no gaps while speech is queued.
// Send times are computed from the start time (start + n * period), so timer lateness never accumulates.

import { MULAW_SILENCE } from './mulaw';
import { FRAME_MS, MULAW_FRAME_BYTES } from './framer';

/** Time and timers, injectable so tests drive the clock by hand. */
export interface ClockSource {
  /** Milliseconds, monotonic. */
  now(): number;
  setTimer(callback: () => void, delayMs: number): unknown;
  clearTimer(handle: unknown): void;
  /** Runs the timers already due (a checkpoint from busy code), where the source supports it. */
  catchUp?(): void;
}

export const systemClock: ClockSource = {
  now: () => performance.now(),
  setTimer: (callback, delayMs) => setTimeout(callback, delayMs),
  clearTimer: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** Sees every paced send as it happens (a replica's Prometheus histograms). */
export interface PacingObserver {
  /** A frame left `latenessMs` after its slot (negative: early, within a timer's rounding). */
  sent(latenessMs: number): void;
  /** A tick found nothing queued while an utterance was open: a gap the caller hears. */
  underrun(): void;
}

export interface FrameClockOptions {
  /**
   * Receives each frame at its send time; `silence` is true for filler frames, `resumed` for the first frame
   * after start() or after a dormant pause (the others follow the previous frame's slot, stalls aside). The
   * frame's buffer is the clock's and is reused once send() returns: copy what must be kept.
   */
  send: (frame: Buffer, silence: boolean, resumed: boolean) => void;
  periodMs?: number;
  /**
   * How much faster than real time the clock runs: 10 sends a 20 ms frame every 2 ms. For tests only; the
   * pacing code is the same at every scale. Reported durations (played ms) stay in media time.
   */
  timeScale?: number;
  /**
   * When nothing is queued: send a silence frame (keeps the carrier's stream continuous) or send nothing. With
   * 'nothing' the clock also stops ticking between utterances and the next one starts at once (its own phase):
   * no timer churn through silences, and no wait of up to a period before an answer's first frame.
   */
  idle?: 'silence' | 'nothing';
  /**
   * When the timer fires more than a period late (an event-loop stall): 'skip' the missed slots, so queued audio
   * is delayed rather than burst into a listener's jitter buffer (the platform's outbound pacing); or 'catch-up':
   * send a frame for every missed slot at once (up to MAX_CATCH_UP_FRAMES), so the stream never breaks and its
   * frames count the clock's time, as a carrier's inbound stream does. Default 'skip'.
   */
  late?: 'skip' | 'catch-up';
  /** The filler frame, sent as is every idle tick (so never mutate it); defaults to 20 ms of mu-law silence. */
  silenceFrame?: Buffer;
  clock?: ClockSource;
  observer?: PacingObserver;
  /** How many recent send-time errors the jitter percentiles cover. */
  jitterWindow?: number;
}

/** Missed slots sent at once at most ('catch-up'): 10 s of media; a longer stall skips the rest. */
export const MAX_CATCH_UP_FRAMES = 500;

/** What clear() dropped and how much of the cut utterance the caller actually heard. */
export interface ClearResult {
  droppedFrames: number;
  /** Media time of the current utterance already sent, in ms. */
  playedMs: number;
}

/**
 * A paced frame sender. enqueue() speech frames, endUtterance() once the last is queued; the clock sends one frame
 * per period. A tick with nothing queued while an utterance is open is an underrun. clear() is barge-in.
 */
export class FrameClock {
  private readonly send: FrameClockOptions['send'];
  private readonly periodMs: number;
  private readonly realPeriodMs: number;
  private readonly idle: 'silence' | 'nothing';
  private readonly late: 'skip' | 'catch-up';
  private readonly silenceFrame: Buffer;
  private readonly clock: ClockSource;
  private readonly observer: PacingObserver | undefined;
  /**
   * Queued audio, copied in: a ring of bytes and, in step, a ring of the frames' lengths. The frames a caller
   * enqueues die young; kept as objects for the up to half a second they wait, every call's speech would
   * outlive the young generation, be promoted, and leave the old-space collector (whose pauses hold every call's
   * next frame) to find it dead later.
   */
  private bytes: Buffer = Buffer.alloc(0);
  private bytesStart = 0;
  private bytesQueued = 0;
  private lengths = new Uint32Array(16);
  private lengthsStart = 0;
  private framesQueued = 0;
  /** The frame handed to send(), reused tick after tick. */
  private outFrame: Buffer = Buffer.alloc(0);
  private timer: unknown;
  private running = false;
  /** Running but not ticking: idle 'nothing' with nothing queued; the next enqueue restarts the ticks. */
  private dormant = false;
  /** The next frame sent starts a run: the clock was just started or woke from dormancy. */
  private resuming = false;
  /** Clock time of the last frame sent (-Infinity before the first). */
  private lastSentAt = -Infinity;
  private startedAt = 0;
  private tickIndex = 0;
  private utteranceOpen = false;
  private utteranceEnding = false;
  /** Held: queued frames wait (no underruns counted) until resume(). */
  private paused = false;
  private utteranceFrames = 0;
  private readonly jitter: Float64Array;
  private jitterCount = 0;
  /** The tick as a timer callback, made once: 50 ticks a second per call need no closure each. */
  private readonly onTick = () => this.tick();

  framesSent = 0;
  silenceFramesSent = 0;
  underruns = 0;
  /** Times the timer fired more than a period late; those slots are skipped, or sent at once ('catch-up'). */
  stalls = 0;

  constructor(options: FrameClockOptions) {
    this.send = options.send;
    this.periodMs = options.periodMs ?? FRAME_MS;
    const timeScale = options.timeScale ?? 1;
    if (!(timeScale > 0)) throw new RangeError('FrameClock: timeScale must be > 0');
    this.realPeriodMs = this.periodMs / timeScale;
    this.idle = options.idle ?? 'silence';
    this.late = options.late ?? 'skip';
    this.silenceFrame = options.silenceFrame ?? Buffer.alloc(MULAW_FRAME_BYTES, MULAW_SILENCE);
    this.clock = options.clock ?? systemClock;
    this.observer = options.observer;
    this.jitter = new Float64Array(options.jitterWindow ?? 3000);
  }

  /** Frames waiting to be sent. */
  get queuedFrames(): number {
    return this.framesQueued;
  }

  /** True from the first frame of an utterance until its last frame is sent or it is cleared. */
  get talking(): boolean {
    return this.utteranceOpen;
  }

  /** Media time of the current (or last finished) utterance already sent, in ms. */
  get playedMs(): number {
    return this.utteranceFrames * this.periodMs;
  }

  /** Starts ticking; the first frame goes out now. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.resuming = true;
    this.startedAt = this.clock.now();
    this.tickIndex = 0;
    this.tick();
  }

  stop(): void {
    this.running = false;
    this.dormant = false;
    if (this.timer !== undefined) this.clock.clearTimer(this.timer);
    this.timer = undefined;
  }

  /** Queues (a copy of) one frame of speech; opens an utterance if none is open. */
  enqueue(frame: Buffer): void {
    if (!this.utteranceOpen) {
      this.utteranceOpen = true;
      this.utteranceFrames = 0;
    }
    // More speech queued before the last frame went out continues the same utterance.
    this.utteranceEnding = false;
    this.push(frame);
    this.wake();
  }

  /** Leaves dormancy, when dormant, so queued frames go out. */
  private wake(): void {
    if (this.dormant && !this.paused) {
      // Nothing was playing: start a new phase now rather than on the old phase's next slot, but never sooner
      // than a period after the last frame (no burst). The timer, not a send from here, lets the caller finish
      // queueing first.
      this.dormant = false;
      const now = this.clock.now();
      const delay = Math.max(0, this.lastSentAt + this.realPeriodMs - now);
      // The new phase counts from when that timer actually fires, so its lateness does not shorten the gap
      // between the first frame and the second.
      this.timer = this.clock.setTimer(() => {
        this.resuming = true;
        this.startedAt = this.clock.now();
        this.tickIndex = 0;
        this.tick();
      }, delay);
    }
  }

  /** The utterance's last frame is queued: draining the queue after this is the end, not an underrun. */
  endUtterance(): void {
    if (!this.utteranceOpen) return;
    if (this.queuedFrames === 0) this.utteranceOpen = false;
    else this.utteranceEnding = true;
  }

  /** Holds the queued frames: nothing of them goes out (idle frames do) until resume(). */
  pause(): void {
    this.paused = true;
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    this.wake();
  }

  /**
   * Queues `frames` (copied) ahead of what is queued, to be played first: speech the listener lost (a carrier
   * told to clear its buffer) played again.
   */
  requeueFront(frames: Buffer[]): void {
    if (frames.length === 0) return;
    const rest: Buffer[] = [];
    while (this.framesQueued > 0) rest.push(Buffer.from(this.shift()));
    this.bytesStart = this.bytesQueued = 0;
    this.lengthsStart = 0;
    for (const frame of frames) this.push(frame);
    for (const frame of rest) this.push(frame);
    if (!this.utteranceOpen) {
      this.utteranceOpen = true;
      this.utteranceEnding = true;
      this.utteranceFrames = 0;
    }
    this.wake();
  }

  /** Barge-in: drops the queued frames and closes the utterance. */
  clear(): ClearResult {
    const result = { droppedFrames: this.queuedFrames, playedMs: this.playedMs };
    this.bytesStart = this.bytesQueued = 0;
    this.lengthsStart = this.framesQueued = 0;
    this.utteranceOpen = false;
    this.utteranceEnding = false;
    return result;
  }

  /** Median of (actual - scheduled) send time over the recent window, in clock ms. */
  get jitterP50Ms(): number {
    return this.jitterPercentile(0.5);
  }

  get jitterP99Ms(): number {
    return this.jitterPercentile(0.99);
  }

  jitterPercentile(fraction: number): number {
    const count = Math.min(this.jitterCount, this.jitter.length);
    if (count === 0) return 0;
    const sorted = this.jitter.slice(0, count).sort();
    return sorted[Math.min(count - 1, Math.ceil(fraction * count) - 1)];
  }

  private tick(): void {
    this.timer = undefined;
    if (!this.running) return;
    const now = this.clock.now();
    const scheduled = this.startedAt + this.tickIndex * this.realPeriodMs;
    this.jitter[this.jitterCount % this.jitter.length] = now - scheduled;
    this.jitterCount++;
    if (this.emit(this.resuming)) {
      this.resuming = false;
      this.lastSentAt = now;
      this.observer?.sent(now - scheduled);
    }
    this.tickIndex++;
    if (this.idle === 'nothing' && (this.paused || (this.queuedFrames === 0 && !this.utteranceOpen))) {
      this.dormant = true;
      return;
    }
    // More than a period late (event loop stall): skip the missed slots so queued audio is delayed, not burst;
    // or, catching up, send them now, so the frames sent keep counting the clock's time.
    const behind = Math.floor((now - this.startedAt) / this.realPeriodMs) + 1;
    if (behind > this.tickIndex) {
      this.stalls++;
      if (this.late === 'catch-up') {
        const missed = Math.min(behind - this.tickIndex, MAX_CATCH_UP_FRAMES);
        for (let i = 0; i < missed && this.running; i++) {
          this.emit(false);
          this.tickIndex++;
        }
        if (!this.running) return;
      }
      this.tickIndex = behind;
    }
    const next = this.startedAt + this.tickIndex * this.realPeriodMs;
    this.timer = this.clock.setTimer(this.onTick, Math.max(0, next - this.clock.now()));
  }

  /** Sends this tick's frame; answers whether anything was sent. */
  private emit(resumed: boolean): boolean {
    if (this.queuedFrames > 0 && !this.paused) {
      const frame = this.shift();
      this.framesSent++;
      this.utteranceFrames++;
      if (this.utteranceEnding && this.queuedFrames === 0) {
        this.utteranceOpen = false;
        this.utteranceEnding = false;
      }
      this.send(frame, false, resumed);
      return true;
    }
    if (this.utteranceOpen && !this.paused) {
      this.underruns++;
      this.observer?.underrun();
    }
    if (this.idle === 'silence') {
      this.silenceFramesSent++;
      this.send(this.silenceFrame, true, resumed);
      return true;
    }
    return false;
  }

  private push(frame: Buffer): void {
    if (this.bytesQueued + frame.length > this.bytes.length) this.growBytes(this.bytesQueued + frame.length);
    const at = (this.bytesStart + this.bytesQueued) % this.bytes.length;
    const untilWrap = this.bytes.length - at;
    frame.copy(this.bytes, at, 0, Math.min(frame.length, untilWrap));
    if (frame.length > untilWrap) frame.copy(this.bytes, 0, untilWrap);
    this.bytesQueued += frame.length;

    if (this.framesQueued === this.lengths.length) {
      const grown = new Uint32Array(this.lengths.length * 2);
      for (let i = 0; i < this.framesQueued; i++)
        grown[i] = this.lengths[(this.lengthsStart + i) % this.lengths.length];
      this.lengths = grown;
      this.lengthsStart = 0;
    }
    this.lengths[(this.lengthsStart + this.framesQueued) % this.lengths.length] = frame.length;
    this.framesQueued++;
  }

  /** The oldest queued frame, in the reused outbound buffer. */
  private shift(): Buffer {
    const length = this.lengths[this.lengthsStart];
    this.lengthsStart = (this.lengthsStart + 1) % this.lengths.length;
    this.framesQueued--;
    if (this.outFrame.length !== length) this.outFrame = Buffer.alloc(length);
    const untilWrap = this.bytes.length - this.bytesStart;
    this.bytes.copy(this.outFrame, 0, this.bytesStart, this.bytesStart + Math.min(length, untilWrap));
    if (length > untilWrap) this.bytes.copy(this.outFrame, untilWrap, 0, length - untilWrap);
    this.bytesStart = (this.bytesStart + length) % this.bytes.length;
    this.bytesQueued -= length;
    return this.outFrame;
  }

  /** Moves the queued bytes, oldest first, into a ring of at least `needed` bytes (doubling). */
  private growBytes(needed: number): void {
    const old = this.bytes;
    const grown = Buffer.alloc(Math.max(needed, old.length * 2, 4096));
    const untilWrap = old.length - this.bytesStart;
    old.copy(grown, 0, this.bytesStart, this.bytesStart + Math.min(this.bytesQueued, untilWrap));
    if (this.bytesQueued > untilWrap) old.copy(grown, untilWrap, 0, this.bytesQueued - untilWrap);
    this.bytes = grown;
    this.bytesStart = 0;
  }
}
