// Carriers' media streams carry 20 ms frames; providers hand back audio in chunks of any length. The framer cuts
// that into exact frames and carries the remainder over to the next push.

import { MULAW_SILENCE } from './mulaw';

/** Frame duration on the carrier side, in ms. */
export const FRAME_MS = 20;

/** Telephone sample rate. */
export const TELEPHONY_SAMPLE_RATE = 8000;

/** Bytes in one 20 ms mu-law frame at 8 kHz. */
export const MULAW_FRAME_BYTES = (TELEPHONY_SAMPLE_RATE * FRAME_MS) / 1000;

/** Bytes in a frame of `frameMs` at `sampleRate` with `bytesPerSample` (1 for mu-law, 2 for PCM16). */
export function frameBytesFor(sampleRate: number, bytesPerSample = 1, frameMs = FRAME_MS): number {
  return Math.round((sampleRate * frameMs) / 1000) * bytesPerSample;
}

/** Splits a byte stream into fixed-size frames. Defaults: 160-byte mu-law frames padded with mu-law silence. */
export class Framer {
  private readonly remainder: Buffer;
  private remainderLength = 0;
  /** The frame pushEach hands out, overwritten frame after frame. */
  private readonly frame: Buffer;

  constructor(
    readonly frameBytes = MULAW_FRAME_BYTES,
    /** Byte used to pad the last frame: 0xFF for mu-law, 0 for PCM16. */
    readonly silenceByte = MULAW_SILENCE,
  ) {
    if (!Number.isInteger(frameBytes) || frameBytes <= 0)
      throw new RangeError('Framer: frameBytes must be > 0');
    this.remainder = Buffer.alloc(frameBytes);
    this.frame = Buffer.alloc(frameBytes);
  }

  /** Bytes held back for the next frame. */
  get pendingBytes(): number {
    return this.remainderLength;
  }

  /** The whole frames now available; each frame is a fresh buffer the caller owns. */
  push(chunk: Uint8Array): Buffer[] {
    const frames: Buffer[] = [];
    let offset = 0;
    if (this.remainderLength > 0) {
      const take = Math.min(this.frameBytes - this.remainderLength, chunk.length);
      this.remainder.set(chunk.subarray(0, take), this.remainderLength);
      this.remainderLength += take;
      offset = take;
      if (this.remainderLength < this.frameBytes) return frames;
      frames.push(Buffer.from(this.remainder));
      this.remainderLength = 0;
    }
    while (chunk.length - offset >= this.frameBytes) {
      const frame = Buffer.allocUnsafe(this.frameBytes);
      frame.set(chunk.subarray(offset, offset + this.frameBytes));
      frames.push(frame);
      offset += this.frameBytes;
    }
    this.remainder.set(chunk.subarray(offset), 0);
    this.remainderLength = chunk.length - offset;
    return frames;
  }

  /**
   * As push, without a buffer per frame: each whole frame goes to `sink` in a buffer of the framer's that the
   * next frame overwrites, so the sink copies what it keeps (a pacing queue copies anyway).
   */
  pushEach(chunk: Buffer, sink: (frame: Buffer) => void): void {
    let offset = 0;
    if (this.remainderLength > 0) {
      const take = Math.min(this.frameBytes - this.remainderLength, chunk.length);
      chunk.copy(this.remainder, this.remainderLength, 0, take);
      this.remainderLength += take;
      offset = take;
      if (this.remainderLength < this.frameBytes) return;
      this.remainderLength = 0;
      sink(this.remainder);
    }
    while (chunk.length - offset >= this.frameBytes) {
      chunk.copy(this.frame, 0, offset, offset + this.frameBytes);
      sink(this.frame);
      offset += this.frameBytes;
    }
    chunk.copy(this.remainder, 0, offset);
    this.remainderLength = chunk.length - offset;
  }

  /** The held-back bytes as a last frame padded with silence, or undefined when nothing is held. */
  flush(): Buffer | undefined {
    if (this.remainderLength === 0) return undefined;
    const frame = Buffer.alloc(this.frameBytes, this.silenceByte);
    frame.set(this.remainder.subarray(0, this.remainderLength));
    this.remainderLength = 0;
    return frame;
  }

  /** Drops held-back bytes (e.g. on barge-in). */
  reset(): void {
    this.remainderLength = 0;
  }
}
