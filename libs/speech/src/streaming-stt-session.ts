// What the live-socket STT adapters share. AssemblyAI and Sarvam extend StreamingSttSession: one WebSocket per call,
// the caller's 8 kHz frames resampled and cut into fixed chunks, an utterance's text built from the provider's final
// pieces, and finish() asking the provider to finalise (its flush/force-endpoint) and waiting for the answer within
// bounds. Deepgram's session, which reconnects a lost stream and replays its audio, uses the same finish() wait
// (UtteranceWait) and socket close (closeSocket).
import { Logger } from '@nestjs/common';
import WebSocket from 'ws';
import { Resampler } from '@vap/media';
import { ProviderError, ProviderTimeout } from './provider-error';
import type { SttSession } from './stt-provider';

const logger = new Logger('StreamingStt');

/** How long to wait for a flush's answer when the provider had no speech in progress (it may send none). */
export const FLUSH_GRACE_MS = 500;
/** A server that does not answer the close handshake is cut off after this long. */
const CLOSE_WAIT_MS = 1000;
/** The most audio kept while the socket opens or a chunk fills (bounded: a stuck socket cannot grow it). */
const MAX_BUFFERED_SECONDS = 10;
/** A socket the provider closes sooner than this after opening is failing, not idle. */
const MIN_LIFETIME_MS = 1000;

export interface StreamingSttOptions {
  /** Provider name for ProviderError (assemblyai, sarvam). */
  provider: string;
  url: string;
  headers: Record<string, string>;
  /** The provider timeout: opening, and waiting for a final a flush owes. */
  timeoutMs: number;
  /** The rate the provider takes (the caller's 8 kHz is resampled to it). */
  sampleRate: number;
  /** Audio goes out in chunks of this many ms (AssemblyAI refuses chunks under 50 ms). */
  chunkMs: number;
  /** The last partial chunk before a flush is padded with silence to a whole chunk (AssemblyAI). */
  padTail: boolean;
  flushGraceMs?: number;
}

/**
 * finish()'s wait for the provider's last words of an utterance (one at a time), shared by every live-socket
 * session: it ends with the text, with the session's failure, or silently when the caller gives up (its signal
 * aborts: the wait rejects with the caller's reason and the utterance is dropped).
 */
export class UtteranceWait {
  private pending:
    { resolve(text: string): void; reject(error: unknown): void; timer?: NodeJS.Timeout } | undefined;

  /** finish() is waiting. */
  get active(): boolean {
    return this.pending !== undefined;
  }

  /** Starts waiting; `dropped` runs when the caller's signal aborts first. */
  start(signal: AbortSignal | undefined, dropped: () => void): Promise<string> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.pending) return Promise.reject(new Error('finish() is already waiting for this utterance'));
    return new Promise<string>((resolve, reject) => {
      const onAbort = () => {
        this.settle();
        dropped();
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const done = () => signal?.removeEventListener('abort', onAbort);
      this.pending = {
        resolve: (text) => {
          done();
          resolve(text);
        },
        reject: (error) => {
          done();
          reject(error);
        },
      };
    });
  }

  /** Runs `then` after `ms` unless the wait ends first; arming again replaces the timer. */
  arm(ms: number, then: () => void): void {
    if (!this.pending) return;
    clearTimeout(this.pending.timer);
    this.pending.timer = setTimeout(then, ms);
  }

  disarm(): void {
    clearTimeout(this.pending?.timer);
  }

  /** Ends the wait with the text, or the error, or (neither: the caller gave up) with nothing. */
  settle(text?: string, error?: unknown): void {
    const pending = this.pending;
    if (!pending) return;
    this.pending = undefined;
    clearTimeout(pending.timer);
    if (error !== undefined) pending.reject(error);
    else if (text !== undefined) pending.resolve(text);
  }
}

/** Closes a provider socket: its goodbye first when open, cut off when the server does not finish the handshake. */
export async function closeSocket(ws: WebSocket, goodbye?: string): Promise<void> {
  if (ws.readyState === WebSocket.OPEN) {
    if (goodbye) ws.send(goodbye);
    ws.close(1000);
  } else if (ws.readyState === WebSocket.CONNECTING) {
    ws.terminate();
  }
  if (ws.readyState === WebSocket.CLOSED) return;
  await new Promise<void>((resolve) => {
    const cut = setTimeout(() => ws.terminate(), CLOSE_WAIT_MS);
    ws.once('close', () => {
      clearTimeout(cut);
      resolve();
    });
  });
}

/**
 * One call's live recognition socket. Subclasses speak the provider's messages: they send audio and the flush
 * signal, and report what arrives through ready(), speechStarted(), interim(), final(), endpoint() and fail().
 */
export abstract class StreamingSttSession implements SttSession {
  onPartial: ((text: string) => void) | undefined;
  /** The spoken_languages code of the utterance finish() last resolved, when the provider reports one. */
  language: string | undefined;
  readonly connected: Promise<void>;
  protected ws: WebSocket;
  private openingTimer: NodeJS.Timeout | undefined;
  /** The provider closed an idle socket: the next push opens another. */
  private dormant = false;
  private readonly resampler: Resampler | undefined;
  private readonly chunk: Int16Array;
  private filled = 0;
  /** Chunks waiting for the socket to open. */
  private backlog: Int16Array[] = [];
  private opened = false;
  private openedAt = 0;
  /** Final pieces of the current utterance, and the words the provider is still working on. */
  private finals: string[] = [];
  private interimText = '';
  private utteranceLanguage: string | undefined;
  /** Speech the provider has begun to recognise and owes a final for. */
  private speechOpen = false;
  /** Audio pushed since the last finish(). */
  private heard = false;
  private readonly waiter = new UtteranceWait();
  private failure: ProviderError | undefined;
  private closing = false;
  private readyResolve!: () => void;
  private readyReject!: (error: unknown) => void;

  protected constructor(protected readonly options: StreamingSttOptions) {
    this.resampler = options.sampleRate === 8000 ? undefined : new Resampler(8000, options.sampleRate);
    this.chunk = new Int16Array(Math.round((options.sampleRate * options.chunkMs) / 1000));
    this.connected = new Promise<void>((resolve, reject) => {
      this.readyResolve = resolve;
      this.readyReject = reject;
    });
    // Rejections of `connected` are the opener's to handle; later failures surface through finish().
    this.connected.catch(() => undefined);
    this.ws = this.connect();
  }

  /**
   * Opens a socket. A socket the provider closes with no speech in progress (an idle timeout) is opened again
   * at the caller's next words; one lost mid-speech, or one that never opens, fails the session.
   */
  private connect(): WebSocket {
    const { url, headers, timeoutMs } = this.options;
    const ws = new WebSocket(url, { headers, handshakeTimeout: timeoutMs });
    const opening = setTimeout(
      () => this.fail(new ProviderTimeout('opening the recognition stream', timeoutMs)),
      timeoutMs,
    );
    opening.unref();
    this.openingTimer = opening;
    ws.on('open', () => {
      if (ws === this.ws && this.opensOnConnect()) this.ready();
    });
    ws.on('message', (data, isBinary) => {
      if (!isBinary && ws === this.ws) this.onMessage(data.toString());
    });
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (part: string) => {
        if (body.length < 500) body += part;
      });
      res.on('end', () =>
        this.fail(new Error(`upgrade refused: HTTP ${res.statusCode} ${body.trim()}`.trim())),
      );
      res.on('error', () => this.fail(new Error(`upgrade refused: HTTP ${res.statusCode}`)));
    });
    ws.on('error', (error) => {
      if (ws === this.ws) this.fail(error);
    });
    ws.on('close', (code, reason) => {
      if (this.closing || ws !== this.ws) return;
      const why = `stream closed by the provider (${code}: ${reason.toString() || 'no reason given'})`;
      // Nothing in progress was lost: an idle close. A socket closed as soon as it opened is a failure (and
      // reopening it frame after frame would spin).
      const idle = this.opened && !this.speechOpen && !this.interimText;
      if (idle && Date.now() - this.openedAt >= MIN_LIFETIME_MS) {
        this.opened = false;
        this.dormant = true;
        logger.log(`${this.options.provider} closed an idle stream (${code}); it reopens at the next words`);
        // A flush waiting out its grace has its answer: there was no speech to finalise.
        if (this.waiter.active) this.waiter.settle(this.takeUtterance());
        return;
      }
      this.fail(new Error(why));
    });
    return ws;
  }

  /** The session is usable as soon as the socket opens (else the subclass calls ready() on its hello). */
  protected opensOnConnect(): boolean {
    return true;
  }

  protected abstract onMessage(raw: string): void;
  /** Sends one chunk of audio at the provider's rate. */
  protected abstract sendAudio(pcm: Int16Array): void;
  /** Asks the provider to finalise what it has heard (ForceEndpoint, flush). */
  protected abstract sendFlush(): void;
  /** The provider's goodbye before the socket closes (Terminate), if it has one. */
  protected goodbye(): string | undefined {
    return undefined;
  }

  push(frame: Int16Array): void {
    if (this.failure || this.closing) return;
    if (this.dormant) {
      this.dormant = false;
      this.ws = this.connect();
    }
    this.heard = true;
    this.addSamples(this.resampler ? this.resampler.push(frame) : frame);
  }

  finish(signal?: AbortSignal): Promise<string> {
    if (this.failure) return Promise.reject(this.failure);
    if (signal?.aborted || this.waiter.active) return this.waiter.start(signal, () => undefined);
    // Nothing since the last finish, or the provider already finalised everything it heard.
    if (!this.heard || (!this.speechOpen && this.finals.length > 0 && !this.interimText)) {
      return Promise.resolve(this.takeUtterance());
    }
    // The pipeline may give up on this utterance (the call ended): its text is dropped.
    const answer = this.waiter.start(signal, () => this.takeUtterance());
    this.flushTail();
    if (this.opened) this.sendFlush();
    this.armWaiter();
    return answer;
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    clearTimeout(this.openingTimer);
    this.waiter.settle(this.takeUtterance());
    this.readyReject(new Error('closed before it opened'));
    await closeSocket(this.ws, this.ws.readyState === WebSocket.OPEN ? this.goodbye() : undefined);
  }

  /** The provider is ready for audio: what waited for it goes out. */
  protected ready(): void {
    if (this.opened || this.failure) return;
    clearTimeout(this.openingTimer);
    this.opened = true;
    this.openedAt = Date.now();
    for (const pcm of this.backlog) this.sendAudio(pcm);
    this.backlog = [];
    if (this.waiter.active) this.sendFlush();
    this.readyResolve();
  }

  /** The provider heard speech begin (a VAD signal, or its first words). */
  protected speechStarted(): void {
    this.speechOpen = true;
    // A flush waiting out its grace now waits for the final it is owed.
    if (this.waiter.active) this.armWaiter();
  }

  /** Words the provider may still revise. */
  protected interim(text: string): void {
    this.interimText = text.trim();
    if (this.interimText) this.speechStarted();
    this.onPartial?.(this.currentText());
  }

  /** A final piece of the utterance; `language` is the provider's code for it, when it says. */
  protected final(text: string, language?: string): void {
    const words = text.trim();
    this.interimText = '';
    if (words) this.finals.push(words);
    if (language) this.utteranceLanguage = language;
    if (words && !this.waiter.active) this.onPartial?.(this.currentText());
  }

  /** The provider closed the speech it had open (end of turn, end of a VAD segment, a flush's answer). */
  protected endpoint(): void {
    this.speechOpen = false;
    if (this.waiter.active) this.waiter.settle(this.takeUtterance());
  }

  /** The provider failed: finish() (now or next) rejects with a ProviderError. */
  protected fail(error: unknown): void {
    if (this.closing) return;
    clearTimeout(this.openingTimer);
    this.failure ??= new ProviderError('stt', this.options.provider, error);
    this.readyReject(this.failure);
    this.waiter.settle(undefined, this.failure);
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) {
      this.closing = true;
      this.ws.terminate();
    }
  }

  /** finish() flushed with no speech in progress: the provider owes no final (it may answer nothing, or refuse). */
  protected get flushingWithoutSpeech(): boolean {
    return this.waiter.active && !this.speechOpen && !this.interimText;
  }

  /** Maps the provider's language answer to a spoken_languages code (subclasses override). */
  protected spokenLanguage(answer: string): string | undefined {
    return answer;
  }

  private currentText(): string {
    return (this.interimText ? this.finals.concat(this.interimText) : this.finals).join(' ');
  }

  private emitChunk(pcm: Int16Array): void {
    this.filled = 0;
    if (this.opened) {
      if (this.ws.readyState === WebSocket.OPEN) this.sendAudio(pcm);
      return;
    }
    this.backlog.push(pcm);
    const limit = (MAX_BUFFERED_SECONDS * 1000) / this.options.chunkMs;
    if (this.backlog.length > limit) this.backlog.shift();
  }

  /** Sends the part-filled chunk before a flush, so the provider has every sample spoken. */
  private flushTail(): void {
    const tail = this.resampler?.flush();
    if (tail?.length) this.addSamples(tail);
    if (this.filled === 0) return;
    if (this.options.padTail) {
      this.chunk.fill(0, this.filled);
      this.emitChunk(this.chunk.slice());
    } else {
      this.emitChunk(this.chunk.slice(0, this.filled));
    }
  }

  /** Adds samples at the provider's rate to the chunk being filled, sending each chunk as it fills. */
  private addSamples(pcm: Int16Array): void {
    let at = 0;
    while (at < pcm.length) {
      const take = Math.min(pcm.length - at, this.chunk.length - this.filled);
      this.chunk.set(pcm.subarray(at, at + take), this.filled);
      this.filled += take;
      at += take;
      if (this.filled === this.chunk.length) this.emitChunk(this.chunk.slice());
    }
  }

  /**
   * Speech in progress: its final is owed, so no answer within the provider timeout is a failure. None: the
   * provider may answer nothing, so after a short grace the utterance is what arrived.
   */
  private armWaiter(): void {
    if (this.speechOpen || !this.opened) {
      this.waiter.arm(this.options.timeoutMs, () =>
        this.fail(new ProviderTimeout('the final transcript', this.options.timeoutMs)),
      );
    } else {
      this.waiter.arm(this.options.flushGraceMs ?? FLUSH_GRACE_MS, () =>
        this.waiter.settle(this.takeUtterance()),
      );
    }
  }

  /** The utterance's text; the next one starts empty. */
  private takeUtterance(): string {
    const text = this.currentText();
    // An utterance with no language answer (nothing said) leaves the caller's last language as it was.
    if (this.utteranceLanguage) this.language = this.spokenLanguage(this.utteranceLanguage);
    this.finals = [];
    this.interimText = '';
    this.utteranceLanguage = undefined;
    this.heard = false;
    return text;
  }
}
