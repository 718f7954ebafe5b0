import type { TtsProviderName } from '@vap/messages';
import { request } from 'undici';
import { ProviderError } from './provider-error';
import { rawPcm16Pieces } from './raw-pcm-stream';
import { RequestDeadline } from './request-deadline';
import type { NetworkProviderConfig } from './speech-settings';
import type { TtsProvider, TtsRequest } from './tts-provider';

/** How much of a refusal's body an error quotes. */
const ERROR_EXCERPT_CHARS = 300;

/** One request to a TTS provider in flight: its deadline, the caller's signal, and what to free when it ends. */
export class TtsCall {
  readonly deadline: RequestDeadline;
  private readonly frees: (() => void)[] = [];

  constructor(
    timeoutMs: number,
    /** The caller's signal (barge-in, call ended): pieces stop as soon as it aborts. */
    readonly signal: AbortSignal | undefined,
  ) {
    this.deadline = new RequestDeadline('speech synthesis', timeoutMs, signal);
  }

  /** `free` runs when the request ends, however it ends: done, failed or stopped early (barge-in). */
  onRelease(free: () => void): void {
    this.frees.push(free);
  }

  release(): void {
    this.deadline.release();
    for (const free of this.frees.splice(0)) free();
  }
}

/** The PCM16 answer's rate and the gain applied to it (the voice's volume where the provider has none). */
export interface PcmAnswer {
  sampleRate: number;
  gain?: number;
}

/**
 * What every cloud TTS adapter shares: each request runs under the provider timeout (armed while waiting on the
 * provider, paused while the pipeline consumes), a failure or a passed deadline comes out as the provider's
 * ProviderError, the caller's abort ends the audio quietly, and the request's connection or socket is freed
 * however it ends. An adapter writes speak(): its request, and its answer as 8 kHz pieces (rawPcm16Pieces).
 */
export abstract class CloudTtsProvider implements TtsProvider {
  abstract readonly name: TtsProviderName;

  constructor(protected readonly config: NetworkProviderConfig) {}

  async *synthesize(request: TtsRequest, signal?: AbortSignal): AsyncIterable<Int16Array> {
    if (signal?.aborted) return;
    yield* this.timed(signal, (call) => this.speak(request, call));
  }

  /** One synthesis as one provider request; adapters that split the text override synthesize(). */
  protected abstract speak(request: TtsRequest, call: TtsCall): AsyncIterable<Int16Array>;

  /** Runs one provider request under its deadline, mapping its failures and releasing it at the end. */
  protected async *timed(
    signal: AbortSignal | undefined,
    run: (call: TtsCall) => AsyncIterable<Int16Array>,
  ): AsyncGenerator<Int16Array> {
    const call = new TtsCall(this.config.timeoutMs, signal);
    try {
      yield* run(call);
    } catch (error) {
      if (call.deadline.callerAborted) return;
      throw new ProviderError('tts', this.name, call.deadline.timeout ?? error);
    } finally {
      call.release();
    }
  }

  /**
   * POSTs a synthesis request whose answer is streamed raw PCM16, and yields it in 8 kHz pieces as it arrives.
   * A refusal throws quoting its status and the start of its body (some providers answer with none).
   */
  protected async *postForPcm(
    call: TtsCall,
    url: string,
    { headers, body }: { headers: Record<string, string>; body: string },
    answer: PcmAnswer,
  ): AsyncGenerator<Int16Array> {
    const res = await request(url, { method: 'POST', headers, body, signal: call.deadline.signal });
    // Stopped early (barge-in, consumer broke off): drop the rest of the answer and free the connection.
    call.onRelease(() => {
      if (!res.body.destroyed) res.body.destroy();
    });
    if (res.statusCode < 200 || res.statusCode >= 300) {
      const refusal = await res.body.text().catch(() => '');
      throw new Error(`HTTP ${res.statusCode}${refusal ? `: ${refusal.slice(0, ERROR_EXCERPT_CHARS)}` : ''}`);
    }
    yield* rawPcm16Pieces(res.body as AsyncIterable<Buffer>, {
      ...answer,
      deadline: call.deadline,
      signal: call.signal,
    });
  }
}
