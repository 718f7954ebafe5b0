import WebSocket from 'ws';
import { ENDPOINT_SILENCE_MS, mulawEncode } from '@vap/media';
import { ProviderError } from './provider-error';
import { recognitionLanguage, trimBaseUrl, type NetworkProviderConfig } from './speech-settings';
import type { SttOptions, SttProvider, SttSession } from './stt-provider';

/** After Finalize, how long to wait for its answer: Deepgram may send none when it had nothing left to process. */
export const FINALIZE_GRACE_MS = 500;
/** Deepgram closes a stream after ~10 s without audio; between utterances a KeepAlive holds it open. */
export const KEEPALIVE_MS = 5000;

/** Stream timing; the defaults suit Deepgram, tests shorten them. */
export interface DeepgramTiming {
  finalizeGraceMs: number;
  keepAliveMs: number;
}
/** Results ending this close to what was sent cover all of it (Deepgram reports times to the ms). */
const EDGE_S = 0.02;

/** A Deepgram live `Results` message (the fields used here). */
interface DeepgramResults {
  type: 'Results';
  start?: number;
  duration?: number;
  is_final?: boolean;
  speech_final?: boolean;
  from_finalize?: boolean;
  channel?: { alternatives?: { transcript?: string }[] };
}

/** The live-listen URL of a Deepgram-compatible server for one call. */
export function deepgramListenUrl(config: NetworkProviderConfig, languages: readonly string[]): string {
  const base = trimBaseUrl(config.baseUrl).replace(/^http(s?):\/\//i, 'ws$1://');
  const query = new URLSearchParams({
    encoding: 'mulaw',
    sample_rate: '8000',
    channels: '1',
    interim_results: 'true',
    endpointing: String(ENDPOINT_SILENCE_MS),
    punctuate: 'true',
  });
  const language = recognitionLanguage(languages);
  if (language) query.set('language', language);
  if (config.model) query.set('model', config.model);
  return `${base}/v1/listen?${query}`;
}

/**
 * Deepgram-compatible streaming STT: one live WebSocket per call, fed mu-law while the caller speaks. The
 * utterance's text is its final results; finish() flushes them with Finalize.
 */
export class DeepgramSttProvider implements SttProvider {
  readonly name = 'deepgram' as const;

  constructor(
    private readonly config: NetworkProviderConfig,
    private readonly timing: DeepgramTiming = {
      finalizeGraceMs: FINALIZE_GRACE_MS,
      keepAliveMs: KEEPALIVE_MS,
    },
  ) {}

  async open(options: SttOptions): Promise<DeepgramSttSession> {
    const session = new DeepgramSttSession(
      this.config,
      deepgramListenUrl(this.config, options.languages),
      this.timing,
    );
    await session.connected;
    return session;
  }
}

interface Waiter {
  resolve(text: string): void;
  reject(error: unknown): void;
  grace: NodeJS.Timeout;
}

export class DeepgramSttSession implements SttSession {
  /** Latest interim hypothesis of the current utterance, e.g. for early barge-in decisions or display. */
  onInterim: ((text: string) => void) | undefined;
  readonly connected: Promise<void>;
  private readonly ws: WebSocket;
  private readonly keepAlive: NodeJS.Timeout;
  private finals: string[] = [];
  /** Seconds of audio sent on this stream, and where the current utterance began on that timeline. */
  private sentSeconds = 0;
  private utteranceStart = 0;
  /** End (stream seconds) of the last final result, for "everything sent is already final". */
  private finalEnd = 0;
  private lastSentAt = Date.now();
  private waiter: Waiter | undefined;
  private failure: ProviderError | undefined;
  private closing = false;

  constructor(
    config: NetworkProviderConfig,
    url: string,
    private readonly timing: DeepgramTiming,
  ) {
    this.ws = new WebSocket(url, {
      headers: { authorization: `Token ${config.apiKey}` },
      handshakeTimeout: config.timeoutMs,
    });
    this.connected = new Promise<void>((resolve, reject) => {
      let opened = false;
      this.ws.once('open', () => {
        opened = true;
        resolve();
      });
      this.ws.once('unexpected-response', (_req, res) => {
        const error = this.fail(new Error(`listen upgrade refused: HTTP ${res.statusCode}`));
        res.resume();
        this.ws.terminate();
        reject(error);
      });
      this.ws.once('error', (error) => reject(this.fail(error)));
      this.ws.once('close', () => {
        if (!opened) reject(this.failure ?? this.fail(new Error('closed before it opened')));
      });
    });
    // Rejections of `connected` are the opener's to handle; later failures surface through finish().
    this.connected.catch(() => undefined);
    this.ws.on('message', (data, isBinary) => {
      if (!isBinary) this.onMessage(data.toString());
    });
    this.ws.on('error', (error) => this.fail(error));
    this.ws.on('close', (code) => {
      clearInterval(this.keepAlive);
      if (!this.closing) this.fail(new Error(`stream closed by the server (${code})`));
    });
    this.keepAlive = setInterval(() => {
      if (this.ws.readyState === WebSocket.OPEN && Date.now() - this.lastSentAt >= timing.keepAliveMs) {
        this.send(JSON.stringify({ type: 'KeepAlive' }));
      }
    }, timing.keepAliveMs);
    this.keepAlive.unref();
  }

  push(frame: Int16Array): void {
    if (this.failure || this.ws.readyState !== WebSocket.OPEN) return;
    this.send(mulawEncode(frame));
    this.sentSeconds += frame.length / 8000;
  }

  finish(signal?: AbortSignal): Promise<string> {
    if (this.failure) return Promise.reject(this.failure);
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.waiter) return Promise.reject(new Error('finish() is already waiting for this utterance'));
    // Nothing sent since the last finish, or all of it already final: no need to wait on Deepgram.
    if (this.sentSeconds === this.utteranceStart || this.finalEnd >= this.sentSeconds - EDGE_S) {
      return Promise.resolve(this.takeUtterance());
    }
    this.send(JSON.stringify({ type: 'Finalize' }));
    return new Promise<string>((resolve, reject) => {
      const onAbort = () => {
        // The pipeline gave up on this utterance (the call ended): its text is dropped.
        this.settle();
        this.takeUtterance();
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const done = () => signal?.removeEventListener('abort', onAbort);
      this.waiter = {
        resolve: (text) => {
          done();
          resolve(text);
        },
        reject: (error) => {
          done();
          reject(error);
        },
        grace: setTimeout(() => this.settle(this.takeUtterance()), this.timing.finalizeGraceMs),
      };
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    clearInterval(this.keepAlive);
    this.settle(this.takeUtterance());
    if (this.ws.readyState === WebSocket.OPEN) {
      this.send(JSON.stringify({ type: 'CloseStream' }));
      this.ws.close(1000);
    } else if (this.ws.readyState === WebSocket.CONNECTING) {
      this.ws.terminate();
    }
    if (this.ws.readyState === WebSocket.CLOSED) return;
    await new Promise<void>((resolve) => {
      // A server that does not answer the close handshake is cut off.
      const cut = setTimeout(() => this.ws.terminate(), 1000);
      this.ws.once('close', () => {
        clearTimeout(cut);
        resolve();
      });
    });
  }

  private onMessage(raw: string): void {
    let message: DeepgramResults;
    try {
      message = JSON.parse(raw) as DeepgramResults;
    } catch {
      return;
    }
    if (message.type !== 'Results') return;
    const end = (message.start ?? 0) + (message.duration ?? 0);
    // A late final of the previous utterance (after its grace) must not open the next one's text.
    if (end <= this.utteranceStart + EDGE_S && message.duration) return;
    const transcript = message.channel?.alternatives?.[0]?.transcript?.trim() ?? '';
    if (message.is_final) {
      if (transcript) this.finals.push(transcript);
      this.finalEnd = Math.max(this.finalEnd, end);
    } else if (transcript) {
      this.onInterim?.(this.finals.concat(transcript).join(' '));
    }
    if (
      this.waiter &&
      (message.from_finalize || (message.speech_final && this.finalEnd >= this.sentSeconds - EDGE_S))
    ) {
      this.settle(this.takeUtterance());
    }
  }

  /** The utterance's final text, and the start of the next utterance on the stream's timeline. */
  private takeUtterance(): string {
    const text = this.finals.join(' ');
    this.finals = [];
    this.utteranceStart = this.sentSeconds;
    return text;
  }

  private settle(text?: string, error?: unknown): void {
    const waiter = this.waiter;
    if (!waiter) return;
    this.waiter = undefined;
    clearTimeout(waiter.grace);
    if (error !== undefined) waiter.reject(error);
    else if (text !== undefined) waiter.resolve(text);
  }

  private send(data: string | Buffer): void {
    this.lastSentAt = Date.now();
    this.ws.send(data);
  }

  private fail(error: unknown): ProviderError {
    this.failure ??= new ProviderError('stt', 'deepgram', error);
    this.settle(undefined, this.failure);
    return this.failure;
  }
}
