import { Resampler, applyGain, pcm16FromBuffer } from '@vap/media';
import type { RequestDeadline } from './request-deadline';

/** Audio the pipeline takes: PCM16 mono at 8 kHz. */
const OUTPUT_RATE = 8000;

export interface RawPcmStreamOptions {
  /** The rate of the answer's samples (16-bit little-endian mono). */
  sampleRate: number;
  /** Gain applied to the samples (the voice's volume where the provider has no volume control); 1 = none. */
  gain?: number;
  /** Timed while waiting for the provider's next bytes, paused while the consumer works. */
  deadline: RequestDeadline;
  signal?: AbortSignal;
}

/**
 * The samples of a streamed raw PCM16 answer as they arrive, at 8 kHz, in pieces of at most 100 ms: a 64 KB
 * network chunk is seconds of speech, and handing it over in one piece would delay barge-in by that much (and
 * resampling it at once would hold the event loop). A sample split across two chunks waits for its second byte.
 */
export async function* rawPcm16Pieces(
  body: AsyncIterable<Buffer>,
  { sampleRate, gain = 1, deadline, signal }: RawPcmStreamOptions,
): AsyncGenerator<Int16Array> {
  const pieceBytes = (sampleRate / 10) * 2;
  const resampler = sampleRate === OUTPUT_RATE ? undefined : new Resampler(sampleRate, OUTPUT_RATE);
  const finish = (pcm: Int16Array) => (gain !== 1 ? applyGain(pcm, gain) : pcm);
  let carry: Buffer | undefined;
  for await (const chunk of body) {
    deadline.pause();
    const bytes = carry ? Buffer.concat([carry, chunk]) : chunk;
    const whole = bytes.length & ~1;
    carry = whole < bytes.length ? Buffer.from(bytes.subarray(whole)) : undefined;
    for (let at = 0; at < whole; at += pieceBytes) {
      // A copy: the network buffer may be reused, and gain scales in place.
      const samples = pcm16FromBuffer(Buffer.from(bytes.subarray(at, Math.min(whole, at + pieceBytes))));
      const out = resampler ? resampler.push(samples) : samples;
      if (out.length) yield finish(out);
      if (signal?.aborted) return;
    }
    deadline.arm();
  }
  deadline.pause();
  const tail = resampler?.flush();
  if (tail?.length) yield finish(tail);
}
