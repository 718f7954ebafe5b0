// Audio between the media plane and a speech-to-speech provider: PCM16 mono, base64 on the wire, each direction
// resampled as a stream (the filter's history carried from one chunk to the next, so no clicks at their seams).
import { pcm16FromBuffer, pcm16ToBuffer, Resampler } from '@vap/media';

/** A provider's audio (base64 little-endian PCM16) as samples. */
export function pcm16FromBase64(data: string): Int16Array {
  return pcm16FromBuffer(Buffer.from(data, 'base64'));
}

/** Samples as a provider takes them: base64 little-endian PCM16. */
export function pcm16ToBase64(pcm: Int16Array): string {
  return pcm16ToBuffer(pcm).toString('base64');
}

/** One direction of a session's audio: from one rate to another, chunk after chunk. */
export class AudioStream {
  private readonly resampler: Resampler | null;

  constructor(fromRate: number, toRate: number) {
    this.resampler = fromRate === toRate ? null : new Resampler(fromRate, toRate);
  }

  /** The chunk at the other rate (what the filter can give of it yet). */
  push(pcm: Int16Array): Int16Array {
    return this.resampler ? this.resampler.push(pcm) : pcm;
  }

  /** The end of a stretch (a response's audio): what the filter held back; the stream starts over. */
  flush(): Int16Array {
    return this.resampler ? this.resampler.flush() : new Int16Array(0);
  }

  /** Forgets the stretch under way (a response cut by barge-in). */
  reset(): void {
    this.resampler?.reset();
  }
}

/** Milliseconds of `samples` at `rate`. */
export function audioMs(samples: number, rate: number): number {
  return (samples * 1000) / rate;
}
