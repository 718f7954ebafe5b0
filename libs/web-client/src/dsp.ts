/*
 * The client's audio arithmetic, free of browser APIs so that Node specs run it as is. The same classes run
 * in the page's AudioWorklet: the build inlines their source (Function.prototype.toString) into the worklet
 * module, so they reference nothing outside themselves but each other and the globals of every JS realm.
 */

/**
 * Streaming sample-rate converter for mono float audio: a short windowed-sinc low-pass at the input rate
 * when going down (so the mic's content above the new Nyquist does not fold back), then linear
 * interpolation. It keeps its state between blocks, so blocks of any size give the same output as one
 * block holding them all.
 */
export class StreamResampler {
  readonly step: number;
  private readonly taps: Float32Array | null;
  private readonly history: Float32Array;
  private historyAt = 0;
  /** Input position of the next output sample, relative to the start of the next block (-1 = last one). */
  private pos = 0;
  private prev = 0;

  constructor(
    readonly inRate: number,
    readonly outRate: number,
  ) {
    if (!(inRate > 0) || !(outRate > 0)) throw new RangeError('sample rates must be positive');
    this.step = inRate / outRate;
    if (outRate < inRate) {
      // 31 taps, cut-off a little below the output's Nyquist, Blackman window, unity gain at DC.
      const n = 31;
      const cutoff = (0.45 * outRate) / inRate;
      const taps = new Float32Array(n);
      let sum = 0;
      for (let k = 0; k < n; k++) {
        const m = k - (n - 1) / 2;
        const sinc = m === 0 ? 2 * cutoff : Math.sin(2 * Math.PI * cutoff * m) / (Math.PI * m);
        const w =
          0.42 - 0.5 * Math.cos((2 * Math.PI * k) / (n - 1)) + 0.08 * Math.cos((4 * Math.PI * k) / (n - 1));
        taps[k] = sinc * w;
        sum += taps[k];
      }
      for (let k = 0; k < n; k++) taps[k] /= sum;
      this.taps = taps;
      this.history = new Float32Array(n);
    } else {
      this.taps = null;
      this.history = new Float32Array(0);
    }
  }

  /** Converts the next block; the output holds as many samples as the input's time has reached. */
  process(input: Float32Array): Float32Array {
    const len = input.length;
    if (len === 0) return new Float32Array(0);
    const x = this.taps ? this.filter(input) : input;
    const out = new Float32Array(Math.max(0, Math.ceil((len - 1 - this.pos) / this.step) + 1));
    let count = 0;
    let pos = this.pos;
    while (pos < len - 1) {
      const i0 = Math.floor(pos);
      const frac = pos - i0;
      const a = i0 < 0 ? this.prev : x[i0];
      const b = x[i0 + 1];
      out[count++] = a + (b - a) * frac;
      pos += this.step;
    }
    this.pos = pos - len;
    this.prev = x[len - 1];
    return count === out.length ? out : out.subarray(0, count);
  }

  private filter(input: Float32Array): Float32Array {
    const taps = this.taps as Float32Array;
    const n = taps.length;
    const h = this.history;
    const out = new Float32Array(input.length);
    for (let i = 0; i < input.length; i++) {
      h[this.historyAt] = input[i];
      let acc = 0;
      let j = this.historyAt;
      for (let k = 0; k < n; k++) {
        acc += taps[k] * h[j];
        j = j === 0 ? n - 1 : j - 1;
      }
      this.historyAt = this.historyAt === n - 1 ? 0 : this.historyAt + 1;
      out[i] = acc;
    }
    return out;
  }
}

/**
 * Gathers float samples into fixed frames of PCM16 little-endian (the wire format): 320 samples (640 bytes,
 * 20 ms at 16 kHz) by default. Samples beyond [-1, 1] are clipped.
 */
export class Pcm16Framer {
  private frame: ArrayBuffer;
  private view: DataView;
  private filled = 0;

  constructor(readonly samplesPerFrame = 320) {
    this.frame = new ArrayBuffer(samplesPerFrame * 2);
    this.view = new DataView(this.frame);
  }

  /** Adds samples; returns the frames they completed (each its own ArrayBuffer, transferable). */
  push(samples: Float32Array): ArrayBuffer[] {
    const done: ArrayBuffer[] = [];
    for (let i = 0; i < samples.length; i++) {
      const s = samples[i] > 1 ? 1 : samples[i] < -1 ? -1 : samples[i];
      this.view.setInt16(this.filled * 2, s < 0 ? Math.round(s * 0x8000) : Math.round(s * 0x7fff), true);
      if (++this.filled === this.samplesPerFrame) {
        done.push(this.frame);
        this.frame = new ArrayBuffer(this.samplesPerFrame * 2);
        this.view = new DataView(this.frame);
        this.filled = 0;
      }
    }
    return done;
  }
}

/** PCM16 little-endian bytes to float samples in [-1, 1); an odd trailing byte is ignored. */
export function pcm16ToFloat(bytes: ArrayBuffer): Float32Array {
  const view = new DataView(bytes);
  const out = new Float32Array(bytes.byteLength >> 1);
  for (let i = 0; i < out.length; i++) out[i] = view.getInt16(i * 2, true) / 0x8000;
  return out;
}

/**
 * The agent's audio waiting to be played, with the marks between it, in order. Playback starts once
 * `prefill` samples are queued (or a mark follows the audio: nothing more is coming before it), and after
 * running dry it waits for the prefill again, so network jitter smaller than the prefill never cuts words.
 * A mark is reached once every sample queued before it has been rendered.
 */
export class PlaybackQueue {
  private readonly items: Array<Float32Array | string> = [];
  private headAt = 0;
  private queued = 0;
  private started = false;

  constructor(readonly prefill: number) {}

  /** Samples queued and not yet rendered. */
  get buffered(): number {
    return this.queued;
  }

  /** Whether samples are being rendered (false while filling up). */
  get playing(): boolean {
    return this.started;
  }

  push(samples: Float32Array): void {
    if (samples.length === 0) return;
    this.items.push(samples);
    this.queued += samples.length;
  }

  mark(name: string): void {
    this.items.push(name);
  }

  /** Drops all queued audio; returns the marks that were pending, which count as played. */
  clear(): string[] {
    const marks: string[] = [];
    for (const item of this.items) if (typeof item === 'string') marks.push(item);
    this.items.length = 0;
    this.headAt = 0;
    this.queued = 0;
    this.started = false;
    return marks;
  }

  /** Fills `out` (silence where nothing is due); returns the marks reached, in order. */
  render(out: Float32Array): string[] {
    const marks: string[] = [];
    let written = 0;
    if (!this.started) {
      const markWaiting = this.items.some((item) => typeof item === 'string');
      if (this.queued >= this.prefill || (markWaiting && this.queued > 0)) this.started = true;
    }
    while (this.items.length) {
      const head = this.items[0];
      if (typeof head === 'string') {
        marks.push(head);
        this.items.shift();
        continue;
      }
      if (!this.started || written === out.length) break;
      const n = Math.min(head.length - this.headAt, out.length - written);
      out.set(head.subarray(this.headAt, this.headAt + n), written);
      written += n;
      this.headAt += n;
      this.queued -= n;
      if (this.headAt === head.length) {
        this.items.shift();
        this.headAt = 0;
      }
    }
    out.fill(0, written);
    // Ran dry: wait for the prefill again before the next sound.
    if (this.started && this.queued === 0) this.started = false;
    return marks;
  }
}
