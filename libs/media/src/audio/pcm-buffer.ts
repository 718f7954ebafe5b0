// PCM16 audio gathered a frame at a time (an utterance for STT) in one buffer that
// doubles as it fills: a frame costs a copy, not an object kept per frame, and n frames cost log n regrowths.

/** PCM16 samples written a frame at a time, kept in one growing buffer. */
export class PcmBuffer {
  private samples: Int16Array;
  private end = 0;

  constructor(initialCapacity = 8000) {
    this.samples = new Int16Array(initialCapacity);
  }

  /** Samples written so far (where the next frame goes by default). */
  get length(): number {
    return this.end;
  }

  /**
   * Copies `frame` in at sample index `at`, or straight after what is written if that is later; samples skipped
   * over are silence.
   */
  write(frame: Int16Array, at = this.end): void {
    const start = Math.max(at, this.end);
    const needed = start + frame.length;
    if (needed > this.samples.length) {
      const grown = new Int16Array(Math.max(needed, this.samples.length * 2));
      grown.set(this.samples.subarray(0, this.end));
      this.samples = grown;
    }
    // Capacity kept from before a clear() may hold old audio.
    this.samples.fill(0, this.end, start);
    this.samples.set(frame, start);
    this.end = needed;
  }

  /** The sample at `i`; 0 past the end. */
  sample(i: number): number {
    return i < this.end ? this.samples[i] : 0;
  }

  /** What is written, as an array of its own. */
  copy(): Int16Array {
    return this.samples.slice(0, this.end);
  }

  /** Starts over empty, keeping the capacity. */
  clear(): void {
    this.end = 0;
  }
}
