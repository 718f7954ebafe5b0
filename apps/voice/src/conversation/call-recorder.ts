// enable_recording: both legs of the call, the caller's audio as received and the agent's as sent, lined up on
// the carrier's stream, written as one two-channel WAV (left caller, right agent) to blob storage as the call
// runs, so a call holds a few seconds of its recording whatever its length.

import { pcm16ToBuffer, pcm16WavHeader, TELEPHONY_SAMPLE_RATE } from '@vap/media';
import type { BlobWriter } from '@vap/storage';

/** The recording's bytes go out in windows of this many samples per leg (half a second, 16 KB of WAV). */
export const RECORDING_WINDOW_SAMPLES = TELEPHONY_SAMPLE_RATE / 2;
/**
 * A window is written once both legs are past it, or once one leg is this far past it (the other is silent, or
 * stalled): the agent's leg has no frames between utterances, and the caller's may stall on the carrier's side.
 * An utterance plays back to back even when this process fell behind (its clock skips the slots a stall took,
 * so the agent's leg falls behind the caller's), so the room is generous: a run further behind than this goes on
 * at the first sample not yet written, which cuts a gap into it.
 */
export const RECORDING_LAG_SAMPLES = TELEPHONY_SAMPLE_RATE * 9;
/**
 * Each leg's unwritten audio: the window, the lag, and one more window of room for the frame being placed; 10 s,
 * 160 KB a leg, what the whole recording started with when it was kept in memory.
 */
const RING_SAMPLES = 2 * RECORDING_WINDOW_SAMPLES + RECORDING_LAG_SAMPLES;
/** Bytes handed to the writer and not yet stored: past 30 s of audio the store counts as failed. */
const MAX_BACKLOG_BYTES = TELEPHONY_SAMPLE_RATE * 4 * 30;
/**
 * Wall ms close() waits for the store to take the rest and complete the object (an S3 completion uploads up to two
 * 5 MiB parts); past it the recording is lost, so a hung store cannot hold up the report that ends the call.
 */
export const RECORDING_CLOSE_TIMEOUT_MS = 60_000;
/** The WAV header the writer keeps room for and writes last, with the sizes. */
export const WAV_HEADER_BYTES = 44;

/** One leg's audio not yet written, in a ring indexed by the sample's position in the call. */
class Leg {
  readonly ring = new Int16Array(RING_SAMPLES);
  /** Position after the last sample placed (where the next frame of a run goes). */
  end = 0;

  /** The sample at `i`, silence where nothing was placed. */
  sample(i: number): number {
    return i < this.end ? this.ring[i % RING_SAMPLES] : 0;
  }

  /** Places `samples` at `start` (not before `written`), silence filling the gap after the last frame. */
  place(samples: Int16Array, start: number, written: number): void {
    for (let i = Math.max(this.end, written); i < start; i++) this.ring[i % RING_SAMPLES] = 0;
    const at = start % RING_SAMPLES;
    const untilWrap = RING_SAMPLES - at;
    if (samples.length <= untilWrap) {
      this.ring.set(samples, at);
    } else {
      this.ring.set(samples.subarray(0, untilWrap), at);
      this.ring.set(samples.subarray(untilWrap), 0);
    }
    this.end = start + samples.length;
  }
}

/**
 * enable_recording: the caller's leg is the carrier's inbound stream, frame after frame (carriers stream it
 * without pause, silence included, so its length is the call's media time on the carrier's clock). The agent's
 * leg follows it: a run of agent frames (an utterance, or the ambience bed) plays back to back, as the carrier
 * plays them, and a run that starts after a pause starts where the caller's leg is then, so an answer lands
 * after the words it answers.
 *
 * The two legs are interleaved a window at a time and handed to the writer as the call goes on; the WAV header,
 * whose sizes are known only at the end, is written by close(). A store that fails (or falls 30 s behind) loses
 * the recording: the writer is aborted, `onLost` hears why, the call goes on.
 */
export class CallRecorder {
  private readonly callerLeg = new Leg();
  private readonly agentLeg = new Leg();
  /** Samples of each leg written so far (the next window starts here). */
  private written = 0;
  /** Bytes handed over and not yet stored: `pending` and the write in flight. */
  private backlogBytes = 0;
  /** Windows waiting for the write in flight; they go out together when it is done. */
  private pending: Buffer[] = [];
  private draining = false;
  private drained: Promise<void> = Promise.resolve();
  private failure: Error | null = null;
  private closed = false;

  constructor(
    private readonly writer: BlobWriter,
    private readonly onLost: (error: Error) => void = () => undefined,
    private readonly closeTimeoutMs = RECORDING_CLOSE_TIMEOUT_MS,
  ) {}

  /** One frame of caller audio (PCM16 8 kHz) as the carrier sent it. */
  caller(frame: Int16Array): void {
    this.place(this.callerLeg, frame, this.callerLeg.end);
  }

  /**
   * One frame of agent audio (PCM16 8 kHz, as sent to the carrier); `continuing` when it follows the previous
   * frame's slot rather than starting after a pause.
   */
  agent(frame: Int16Array, continuing: boolean): void {
    const leg = this.agentLeg;
    this.place(leg, frame, continuing ? leg.end : Math.max(leg.end, this.callerLeg.end));
  }

  /**
   * Writes what is left (as long as the longer leg) and the header, and puts the recording at its key; null when
   * it was lost.
   */
  async close(): Promise<{ durationSeconds: number } | null> {
    if (this.closed) throw new Error('the recording is already closed');
    this.closed = true;
    const frames = Math.max(this.callerLeg.end, this.agentLeg.end, this.written);
    while (!this.failure && this.written < frames) {
      this.writeWindow(Math.min(frames, this.written + RECORDING_WINDOW_SAMPLES));
    }
    if (this.failure) return null;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), this.closeTimeoutMs);
      timer.unref?.();
    });
    const stored = this.store(frames);
    const outcome = await Promise.race([stored, late]);
    clearTimeout(timer);
    if (outcome !== 'late') return outcome;
    this.lose(new Error(`the recording store did not finish within ${this.closeTimeoutMs / 1000} s`));
    return null;
  }

  /** Waits for the pending windows to be stored, then completes the object with the header. */
  private async store(frames: number): Promise<{ durationSeconds: number } | null> {
    await this.drained;
    if (this.failure) return null;
    try {
      await this.writer.complete(pcm16WavHeader(frames * 4, TELEPHONY_SAMPLE_RATE, 2));
      return { durationSeconds: frames / TELEPHONY_SAMPLE_RATE };
    } catch (err) {
      this.lose(err as Error);
      return null;
    }
  }

  /** Places a frame at `at` (or at the first sample not yet written), writing windows to make room. */
  private place(leg: Leg, frame: Int16Array, at: number): void {
    if (this.failure || this.closed) return;
    // A frame longer than a window (carriers send 20 ms; nothing stops one from sending more) goes in pieces.
    for (let offset = 0; offset < frame.length; offset += RECORDING_WINDOW_SAMPLES) {
      const piece = frame.subarray(offset, offset + RECORDING_WINDOW_SAMPLES);
      const start = Math.max(offset === 0 ? at : leg.end, this.written);
      while (start + piece.length > this.written + RING_SAMPLES) {
        this.writeWindow(this.written + RECORDING_WINDOW_SAMPLES);
      }
      leg.place(piece, start, this.written);
      this.writeReadyWindows();
    }
  }

  private writeReadyWindows(): void {
    for (;;) {
      const next = this.written + RECORDING_WINDOW_SAMPLES;
      const caller = this.callerLeg.end;
      const agent = this.agentLeg.end;
      const bothPast = caller >= next && agent >= next;
      if (!bothPast && Math.max(caller, agent) < next + RECORDING_LAG_SAMPLES) return;
      this.writeWindow(next);
    }
  }

  /** Interleaves both legs from `written` to `end` (caller left, agent right) and hands the bytes to the writer. */
  private writeWindow(end: number): void {
    const interleaved = new Int16Array((end - this.written) * 2);
    for (let i = this.written, at = 0; i < end; i++, at += 2) {
      interleaved[at] = this.callerLeg.sample(i);
      interleaved[at + 1] = this.agentLeg.sample(i);
    }
    const bytes = pcm16ToBuffer(interleaved);
    this.written = end;
    if (this.failure) return;
    this.backlogBytes += bytes.length;
    if (this.backlogBytes > MAX_BACKLOG_BYTES) {
      this.lose(new Error('the recording store fell 30 s behind'));
      return;
    }
    this.pending.push(bytes);
    if (!this.draining) {
      this.draining = true;
      this.drained = this.drain();
    }
  }

  /**
   * Hands the pending windows to the writer, all that piled up during the last write as one chunk: a store a
   * write at a time would fall behind on a busy event loop (one write per loop turn) or at a fast media clock.
   */
  private async drain(): Promise<void> {
    try {
      while (this.pending.length && !this.failure) {
        const chunk = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending);
        this.pending = [];
        await this.writer.write(chunk);
        this.backlogBytes -= chunk.length;
      }
    } catch (err) {
      this.lose(err as Error);
    } finally {
      this.draining = false;
    }
  }

  private lose(error: Error): void {
    if (this.failure) return;
    this.failure = error;
    void this.writer.abort();
    this.onLost(error);
  }
}
