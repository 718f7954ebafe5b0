import { request } from 'undici';
import { apiBaseUrl } from '@vap/llm';
import { Resampler, applyGain } from '@vap/media';
import { ProviderError } from '../provider-error';
import { RequestDeadline } from '../request-deadline';
import type { NetworkProviderConfig } from '../speech-settings';
import type { TtsProvider, TtsRequest } from '../tts-provider';

/** OpenAI's `pcm` response format: 24 kHz, 16-bit little-endian, mono. */
const PCM_SAMPLE_RATE = 24000;
const ERROR_EXCERPT_CHARS = 300;
/**
 * Network chunks are resampled and yielded in pieces of at most 100 ms of audio: a 64 KB chunk is over a second
 * of speech, and resampling it in one go would hold the event loop (and every call's frame clock) for that long.
 */
const PIECE_BYTES = (PCM_SAMPLE_RATE / 10) * 2;

/**
 * OpenAI-compatible TTS: streams `<base>/audio/speech` as raw PCM and resamples to 8 kHz chunk by chunk, so the
 * first audio goes out while the rest is still being synthesized. The deadline runs to the first byte and then
 * between chunks (a stalled stream is a failure, not a silent line); it pauses while the pipeline consumes.
 */
export class OpenAiTtsProvider implements TtsProvider {
  readonly name = 'openai' as const;

  constructor(private readonly config: NetworkProviderConfig) {}

  async *synthesize({ text, voice }: TtsRequest, signal?: AbortSignal): AsyncIterable<Int16Array> {
    if (signal?.aborted) return;
    const deadline = new RequestDeadline('speech synthesis', this.config.timeoutMs, signal);
    const fail = (error: unknown) => new ProviderError('tts', 'openai', deadline.timeout ?? error);
    let body: Awaited<ReturnType<typeof request>>['body'] | undefined;
    try {
      const res = await request(`${apiBaseUrl(this.config.baseUrl)}/audio/speech`, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.config.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          model: this.config.model || voice.model,
          input: text,
          voice: voice.providerVoiceId,
          response_format: 'pcm',
          // The API accepts 0.25-4.
          speed: Math.min(4, Math.max(0.25, voice.speed || 1)),
        }),
        signal: deadline.signal,
      });
      body = res.body;
      if (res.statusCode < 200 || res.statusCode >= 300) {
        const answer = await res.body.text().catch(() => '');
        throw new Error(`HTTP ${res.statusCode}: ${answer.slice(0, ERROR_EXCERPT_CHARS)}`);
      }
      const resampler = new Resampler(PCM_SAMPLE_RATE, 8000);
      const gain = voice.volume ?? 1;
      // A chunk may end mid-sample; its odd byte waits for the next chunk.
      let carry: Buffer | undefined;
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        deadline.pause();
        const bytes = carry ? Buffer.concat([carry, chunk]) : chunk;
        const whole = bytes.length & ~1;
        carry = whole < bytes.length ? Buffer.from(bytes.subarray(whole)) : undefined;
        // One array holds the chunk's pieces (each a view of it, never written again): not one array a piece.
        const room = new Int16Array(resampler.maxOutput(whole >> 1) + Math.ceil(whole / PIECE_BYTES));
        let used = 0;
        for (let at = 0; at < whole; at += PIECE_BYTES) {
          const out = resampler.pushBytes(bytes, at, Math.min(whole, at + PIECE_BYTES), room, used);
          used += out.length;
          if (out.length) {
            if (gain !== 1) applyGain(out, gain);
            yield out;
          }
          if (signal?.aborted) return;
        }
        deadline.arm();
      }
      deadline.pause();
      const tail = resampler.flush();
      if (tail.length) yield gain !== 1 ? applyGain(tail, gain) : tail;
    } catch (error) {
      if (deadline.callerAborted) return;
      throw fail(error);
    } finally {
      deadline.release();
      // Stopped early (barge-in, consumer broke off): drop the rest of the answer and the connection's claim on it.
      if (body && !body.destroyed) body.destroy();
    }
  }
}
