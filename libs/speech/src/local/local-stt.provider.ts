import { OfflineTranscriber, PcmBuffer, resamplePcm16 } from '@vap/media';
import { ProviderError } from '../provider-error';
import { RequestDeadline } from '../request-deadline';
import type { SttOptions, SttProvider, SttSession } from '../stt-provider';
import { defaultSttWorkers, type LocalSpeechSettings, MAX_LOCAL_STT_WORKERS } from './local-speech';
import { POCKETSPHINX_SAMPLE_RATE, PocketSphinxPool } from './pocketsphinx-pool';

const CALL_SAMPLE_RATE = 8000;
/**
 * Longest utterance a session keeps, in ms: the endpointer cuts an utterance at 30 s (MEDIA_MAX_UTTERANCE_MS's
 * default), plus its pre-roll. Audio past it is not kept.
 */
export const LOCAL_STT_MAX_UTTERANCE_MS = 31_000;
/** Utterances waiting per recogniser process at most, before one more is refused. */
const QUEUE_PER_WORKER = 8;
/** Standard deviation of the noise that fills the band above 4 kHz, in PCM16 steps (about -50 dBFS). */
const BAND_FILL_NOISE = 100;

/**
 * Telephone audio upsampled to 16 kHz has nothing above 4 kHz, and PocketSphinx's wideband model reads those
 * silent filterbank channels (their logs far below anything it was trained on) as strong evidence: it hears other
 * words. Faint white noise fills them as a microphone's own noise would; measured here, it turned "when you meet
 * all of mine" back into "one two three four five". Seeded, so one utterance always decodes the same.
 */
export function fillSilentBand(pcm: Int16Array): Int16Array {
  let seed = 0x9e3779b9;
  const uniform = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 0x100000000;
  };
  // Irwin-Hall: the sum of 4 uniforms is close to normal, with variance 4/12.
  const scale = BAND_FILL_NOISE * Math.sqrt(3);
  for (let i = 0; i < pcm.length; i++) {
    const noise = (uniform() + uniform() + uniform() + uniform() - 2) * scale;
    pcm[i] = Math.max(-32768, Math.min(32767, Math.round(pcm[i] + noise)));
  }
  return pcm;
}

export interface LocalSttOptions extends Pick<LocalSpeechSettings, 'pythonPath' | 'timeoutMs'> {
  sttWorkers?: number;
  maxUtteranceMs?: number;
}

/**
 * PocketSphinx (US English) on this machine: a session keeps the caller's utterance and finish() has one of the
 * replica's recogniser processes decode it whole (upsampled to the model's 16 kHz). speculate() decodes the
 * utterance so far. The processes start as utterances need them (one at warm()) and end with close().
 *
 * Speech the platform synthesised itself carries its text under it (the sandbox phone's callee, offline voices):
 * that is read exactly, as the offline engine reads it, and never sent to PocketSphinx, whose guesses at
 * synthetic speech would turn the sandbox's scripted conversations into noise. A person's speech has no such
 * text and is recognised.
 */
export class LocalSttProvider implements SttProvider {
  readonly name = 'local' as const;
  readonly pool: PocketSphinxPool;
  private readonly maxUtteranceSamples: number;

  constructor(private readonly options: LocalSttOptions) {
    const size = Math.max(1, Math.min(MAX_LOCAL_STT_WORKERS, options.sttWorkers ?? defaultSttWorkers()));
    this.pool = new PocketSphinxPool({
      pythonPath: options.pythonPath,
      size,
      maxQueue: size * QUEUE_PER_WORKER,
    });
    this.maxUtteranceSamples =
      ((options.maxUtteranceMs ?? LOCAL_STT_MAX_UTTERANCE_MS) * CALL_SAMPLE_RATE) / 1000;
  }

  async open(_options: SttOptions): Promise<SttSession> {
    return new LocalSttSession(this.pool, this.options.timeoutMs, this.maxUtteranceSamples);
  }

  /**
   * Starts one recogniser process before any call needs it (the replica's boot): the first utterance of the first
   * call would otherwise wait for Python and the model, seconds on a busy machine, within its deadline. The rest
   * start as utterances need them.
   */
  async warm(): Promise<void> {
    const limitMs = this.options.timeoutMs;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`the recogniser was not ready within ${limitMs} ms`)),
        limitMs,
      );
    });
    try {
      await Promise.race([this.pool.warm(1), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Ends the recogniser processes (module destroy). */
  close(): Promise<void> {
    return this.pool.close();
  }
}

class LocalSttSession implements SttSession {
  private readonly utterance = new PcmBuffer();
  /** Reads the platform's own synthetic speech by the text it carries. */
  private readonly signal = new OfflineTranscriber();
  onPartial?: (text: string) => void;

  constructor(
    private readonly pool: PocketSphinxPool,
    private readonly timeoutMs: number,
    private readonly maxSamples: number,
  ) {}

  push(frame: Int16Array): void {
    if (this.signal.push(frame)) this.onPartial?.(this.signal.text);
    const room = this.maxSamples - this.utterance.length;
    if (room <= 0) return;
    this.utterance.write(frame.length > room ? frame.subarray(0, room) : frame);
  }

  async finish(signal?: AbortSignal): Promise<string> {
    const pcm = this.utterance.copy();
    this.utterance.clear();
    const carried = this.signal.finish();
    if (carried) {
      signal?.throwIfAborted();
      return carried;
    }
    return this.transcribe(pcm, false, signal);
  }

  /** The words so far, only when a recogniser process is free now: finals never wait behind a speculation. */
  async speculate(signal?: AbortSignal): Promise<string> {
    if (this.signal.text) return this.signal.text;
    return this.transcribe(this.utterance.copy(), true, signal);
  }

  async close(): Promise<void> {
    this.utterance.clear();
    this.signal.reset();
  }

  private async transcribe(pcm: Int16Array, idleOnly: boolean, signal?: AbortSignal): Promise<string> {
    signal?.throwIfAborted();
    if (pcm.length === 0) return '';
    const deadline = new RequestDeadline('recognition', this.timeoutMs, signal);
    try {
      const wideband = fillSilentBand(resamplePcm16(pcm, CALL_SAMPLE_RATE, POCKETSPHINX_SAMPLE_RATE));
      return await this.pool.decode(wideband, deadline.signal, { idleOnly });
    } catch (error) {
      if (deadline.callerAborted) throw signal?.reason ?? error;
      throw new ProviderError('stt', 'local', deadline.timeout ?? error);
    } finally {
      deadline.release();
    }
  }
}
