import { Resampler, applyGain } from '@vap/media';
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
 * Every cloud TTS adapter hands its answer's bytes here.
 */
export async function* rawPcm16Pieces(
  body: AsyncIterable<Buffer>,
  { sampleRate, gain = 1, deadline, signal }: RawPcmStreamOptions,
): AsyncGenerator<Int16Array> {
  const pieceBytes = (sampleRate / 10) * 2;
  // At 8 kHz the resampler only copies the samples out of the network buffer (which may be reused).
  const resampler = new Resampler(sampleRate, OUTPUT_RATE);
  let carry: Buffer | undefined;
  for await (const chunk of body) {
    deadline.pause();
    const bytes = carry ? Buffer.concat([carry, chunk]) : chunk;
    const whole = bytes.length & ~1;
    carry = whole < bytes.length ? Buffer.from(bytes.subarray(whole)) : undefined;
    // One array holds the chunk's pieces (each a view of it, never written again): not one array a piece.
    const room = new Int16Array(resampler.maxOutput(whole >> 1) + Math.ceil(whole / pieceBytes));
    let used = 0;
    for (let at = 0; at < whole; at += pieceBytes) {
      const out = resampler.pushBytes(bytes, at, Math.min(whole, at + pieceBytes), room, used);
      used += out.length;
      if (out.length) yield gain !== 1 ? applyGain(out, gain) : out;
      if (signal?.aborted) return;
    }
    deadline.arm();
  }
  deadline.pause();
  const tail = resampler.flush();
  if (tail.length) yield gain !== 1 ? applyGain(tail, gain) : tail;
}
