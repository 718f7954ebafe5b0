import { createHash } from 'node:crypto';
import { encodePcm16Wav } from '@vap/media';
import { VOICE_PREVIEW_MAX_SECONDS } from '@vap/messages';

/** What every TTS provider of @vap/speech streams: PCM16 mono at 8 kHz. */
export const PREVIEW_SAMPLE_RATE = 8000;

/**
 * Gathers a synthesis stream into one clip of at most `maxSeconds`; a longer stream is cut there and its
 * request aborted through `stop`, so a runaway provider neither fills memory nor holds the reply.
 */
export async function collectPreviewPcm(
  chunks: AsyncIterable<Int16Array>,
  stop: () => void,
  sampleRate = PREVIEW_SAMPLE_RATE,
  maxSeconds = VOICE_PREVIEW_MAX_SECONDS,
): Promise<Int16Array> {
  const limit = sampleRate * maxSeconds;
  const parts: Int16Array[] = [];
  let length = 0;
  for await (const chunk of chunks) {
    const take = Math.min(chunk.length, limit - length);
    if (take > 0) {
      parts.push(chunk.slice(0, take));
      length += take;
    }
    if (length >= limit) {
      stop();
      break;
    }
  }
  const pcm = new Int16Array(length);
  let at = 0;
  for (const part of parts) {
    pcm.set(part, at);
    at += part.length;
  }
  return pcm;
}

/** The preview as served: a 16-bit PCM mono RIFF/WAVE file. */
export function previewWav(pcm: Int16Array, sampleRate = PREVIEW_SAMPLE_RATE): Buffer {
  return encodePcm16Wav(pcm, sampleRate);
}

/** The cache's hash of a preview text. */
export function previewTextHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
