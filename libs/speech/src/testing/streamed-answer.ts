// How the REST fakes stream an audio answer: chunked, in several odd-sized pieces with small pauses between
// them (so a client must start playing before the end and handle samples split across chunks), noticing when
// the client goes away, and able to drop the connection part-way (FailureSwitch 'close').
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

/** What a test reads of one streamed answer while it runs and after. */
export interface StreamProgress {
  /** Chunks written so far. */
  chunksSent: number;
  /** The last chunk was written and the answer ended. */
  complete: boolean;
  /** The client closed the connection before the answer ended (barge-in, timeout). */
  clientClosed: boolean;
}

export interface StreamPacing {
  /** How many pieces the audio goes out in (at least). */
  chunks: number;
  /** Pause before each piece after the first, in ms. */
  delayMs: number;
}

export const DEFAULT_PACING: StreamPacing = { chunks: 6, delayMs: 15 };

export function newProgress(): StreamProgress {
  return { chunksSent: 0, complete: false, clientClosed: false };
}

/**
 * Writes `audio` (headers already sent) in `pacing.chunks` pieces of an odd byte count. With `cut`, the
 * connection is destroyed after a third of the audio, as a provider that fails mid-answer does.
 */
export async function streamInChunks(
  req: IncomingMessage,
  res: ServerResponse,
  audio: Buffer,
  pacing: StreamPacing,
  progress: StreamProgress,
  cut = false,
): Promise<void> {
  res.on('close', () => {
    if (!res.writableFinished) progress.clientClosed = true;
  });
  const size = Math.max(1, Math.ceil(audio.length / Math.max(1, pacing.chunks))) | 1;
  for (let at = 0; at < audio.length; at += size) {
    if (at > 0) await sleep(pacing.delayMs);
    if (res.destroyed) return;
    if (cut && at >= audio.length / 3) {
      req.socket.destroy();
      return;
    }
    res.write(audio.subarray(at, at + size));
    progress.chunksSent++;
  }
  if (res.destroyed) return;
  res.end();
  progress.complete = true;
}

/** Compares a presented key with the fake's in constant time (as a provider would). */
export function keyMatches(presented: string | undefined, expected: string): boolean {
  if (presented === undefined) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(presented), digest(expected));
}
