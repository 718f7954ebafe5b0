import { setTimeout as sleep } from 'node:timers/promises';
import { Logger } from '@nestjs/common';
import WebSocket from 'ws';
import { apiBaseUrl } from '@vap/llm';
import { ENDPOINT_SILENCE_MS, mulawEncode } from '@vap/media';
import { speechEvents } from '../speech-events';
import { ProviderError } from '../provider-error';
import { keytermsForUrl } from '../keyterms';
import { isoLanguageOf, spokenLanguageOf } from '../languages';
import { recognitionLanguage, type NetworkProviderConfig } from '../speech-settings';
import { closeSocket, UtteranceWait } from '../streaming-stt-session';
import type { SttOptions, SttProvider, SttSession } from '../stt-provider';

/** After Finalize, how long to wait for its answer: Deepgram may send none when it had nothing left to process. */
export const FINALIZE_GRACE_MS = 500;
/**
 * After Finalize, how long to wait for its answer when Deepgram has already sent words it has not finalised: an
 * answer is coming, and a slow network must not cost the caller their words. Past it, the words are the interim's.
 */
export const FINALIZE_PENDING_WAIT_MS = 2500;
/** Deepgram closes a stream after ~10 s without audio; between utterances a KeepAlive holds it open. */
export const KEEPALIVE_MS = 5000;
/** Waits before each reconnect of a stream lost mid-call; its length bounds the attempts. */
export const RECONNECT_BACKOFF_MS: readonly number[] = [100, 300, 1000];
/** Audio not yet covered by a final is kept this long (seconds) to replay on a reconnected stream. */
const REPLAY_S = 5;

/** Stream timing; the defaults suit Deepgram, tests shorten them. */
export interface DeepgramTiming {
  finalizeGraceMs: number;
  finalizePendingWaitMs: number;
  keepAliveMs: number;
  reconnectBackoffMs: readonly number[];
}

const DEFAULT_TIMING: DeepgramTiming = {
  finalizeGraceMs: FINALIZE_GRACE_MS,
  finalizePendingWaitMs: FINALIZE_PENDING_WAIT_MS,
  keepAliveMs: KEEPALIVE_MS,
  reconnectBackoffMs: RECONNECT_BACKOFF_MS,
};
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
  channel?: {
    alternatives?: {
      transcript?: string;
      /** Multilingual (language=multi): the languages of this result, most used first. */
      languages?: string[];
      words?: { language?: string }[];
    }[];
  };
}

/** Deepgram refuses keyterm lists over 500 tokens; a token is counted as 3 characters here, to be safe. */
const KEYTERM_TOKEN_BUDGET = 500;

/** The agent's terms that fit in the URL and in Deepgram's token budget, first ones first. */
function deepgramKeyterms(terms: readonly string[] | undefined): string[] {
  let tokens = 0;
  return keytermsForUrl(terms).filter((term) => {
    tokens += Math.ceil(term.length / 3);
    return tokens <= KEYTERM_TOKEN_BUDGET;
  });
}

/** Keyterm prompting (`keyterm`) is Nova-3's; older models boost `keywords`. */
function takesKeyterms(model: string | undefined): boolean {
  return !!model && /^nova-3/.test(model);
}

/**
 * The live-listen URL of a Deepgram-compatible server for one call: the agent's model (over the deployment's),
 * its languages (two with Nova-3: `language=multi`, code-switching), its keyterms (`keyterm` for Nova-3,
 * `keywords` before) and its options (smart_format, numerals, endpointing_ms).
 */
export function deepgramListenUrl(config: NetworkProviderConfig, options: SttOptions): string {
  const base = apiBaseUrl(config.baseUrl).replace(/^http(s?):\/\//i, 'ws$1://');
  const extra = options.providerOptions ?? {};
  const endpointing =
    typeof extra.endpointing_ms === 'number' ? Math.round(extra.endpointing_ms) : ENDPOINT_SILENCE_MS;
  const query = new URLSearchParams({
    encoding: 'mulaw',
    sample_rate: '8000',
    channels: '1',
    interim_results: 'true',
    endpointing: String(endpointing),
    punctuate: 'true',
  });
  const model = options.model || config.model;
  if (takesKeyterms(model) && new Set(options.languages.map(isoLanguageOf)).size > 1) {
    query.set('language', 'multi');
  } else {
    const language = recognitionLanguage(options.languages);
    if (language) query.set('language', language);
  }
  if (model) query.set('model', model);
  for (const term of deepgramKeyterms(options.keyterms)) {
    query.append(takesKeyterms(model) ? 'keyterm' : 'keywords', term);
  }
  if (typeof extra.smart_format === 'boolean') query.set('smart_format', String(extra.smart_format));
  if (typeof extra.numerals === 'boolean') query.set('numerals', String(extra.numerals));
  return `${base}/listen?${query}`;
}

/** The server answered the upgrade with an HTTP status instead of a WebSocket. */
class UpgradeRefused extends Error {
  constructor(readonly status: number | undefined) {
    super(`listen upgrade refused: HTTP ${status}`);
  }

  /** A refused key will be refused again: no point retrying. */
  get isAuth(): boolean {
    return this.status === 401 || this.status === 403;
  }
}

/**
 * Deepgram-compatible streaming STT: one live WebSocket per call, fed mu-law while the caller speaks. The
 * utterance's text is its final results; finish() flushes them with Finalize. A stream lost mid-call is
 * reconnected (see DeepgramSttSession).
 */
export class DeepgramSttProvider implements SttProvider {
  readonly name = 'deepgram' as const;
  private readonly timing: DeepgramTiming;

  constructor(
    private readonly config: NetworkProviderConfig,
    timing: Partial<DeepgramTiming> = {},
  ) {
    this.timing = { ...DEFAULT_TIMING, ...timing };
  }

  async open(options: SttOptions): Promise<DeepgramSttSession> {
    const session = new DeepgramSttSession(
      this.config,
      deepgramListenUrl(this.config, options),
      this.timing,
      options.languages,
    );
    await session.connected;
    return session;
  }
}

/** A frame sent (or to send) and where it sits on the session's audio timeline, in seconds. */
interface SentAudio {
  start: number;
  end: number;
  data: Buffer;
}

const logger = new Logger('DeepgramStt');

/**
 * One call's live stream. Times are kept on the session's audio timeline (seconds of audio pushed), since a
 * reconnected stream counts its own from zero again. When the server drops an open stream, the session
 * reconnects with the same URL, replays the audio no final covered yet (so the utterance being spoken is not
 * lost) and re-sends a pending Finalize; only when the bounded attempts fail does it fail as ProviderError.
 */
export class DeepgramSttSession implements SttSession {
  /** The current utterance's words so far: its finals and the latest interim hypothesis (turn-taking reads them). */
  onPartial: ((text: string) => void) | undefined;
  /** The spoken_languages code of the utterance finish() last resolved, when Deepgram said (language=multi). */
  language: string | undefined;
  readonly connected: Promise<void>;
  private ws!: WebSocket;
  /** The language the current utterance's finals were mostly in, as Deepgram names it. */
  private utteranceLanguage: string | undefined;
  private readonly keepAlive: NodeJS.Timeout;
  private finals: string[] = [];
  /** The latest interim hypothesis after the last final: words Deepgram heard and has not finalised yet. */
  private interim = '';
  /** Seconds of audio pushed, and where the current utterance began on that timeline. */
  private sentSeconds = 0;
  private utteranceStart = 0;
  /** End of the last final result, for "everything sent is already final". */
  private finalEnd = 0;
  /** Where the current socket's own timeline starts on the session's. */
  private streamOffset = 0;
  /** Audio no final covers yet (bounded to REPLAY_S), replayed on a reconnected stream. */
  private unfinalised: SentAudio[] = [];
  private lastSentAt = Date.now();
  private openedAt = 0;
  /** finish()'s wait; its timer is armed when Finalize goes out (while the stream reconnects there is none yet). */
  private readonly waiter = new UtteranceWait();
  private failure: ProviderError | undefined;
  private closing = false;
  /** Cancels a reconnect's backoff when the call ends. */
  private readonly closed = new AbortController();
  private reconnecting = false;
  /**
   * Reconnect attempts used and the deadline (the provider timeout) since the stream last proved healthy; a
   * stream that drops again before proving itself does not get a fresh budget.
   */
  private trouble: { attempts: number; deadline: number } | undefined;

  constructor(
    private readonly config: NetworkProviderConfig,
    private readonly url: string,
    private readonly timing: DeepgramTiming,
    private readonly languages: readonly string[] = [],
  ) {
    this.connected = this.connect(config.timeoutMs).catch((error: unknown) => {
      throw this.fail(error);
    });
    // Rejections of `connected` are the opener's to handle; later failures surface through finish().
    this.connected.catch(() => undefined);
    this.keepAlive = setInterval(() => {
      if (!this.reconnecting && Date.now() - this.lastSentAt >= timing.keepAliveMs) {
        this.send(JSON.stringify({ type: 'KeepAlive' }));
      }
    }, timing.keepAliveMs);
    this.keepAlive.unref();
  }

  push(frame: Int16Array): void {
    if (this.failure || this.closing) return;
    const data = mulawEncode(frame);
    const start = this.sentSeconds;
    this.sentSeconds += frame.length / 8000;
    this.unfinalised.push({ start, end: this.sentSeconds, data });
    this.trimUnfinalised();
    // While the stream reconnects the frame waits in `unfinalised` and is replayed.
    if (!this.reconnecting) this.send(data);
  }

  finish(signal?: AbortSignal): Promise<string> {
    if (this.failure) return Promise.reject(this.failure);
    if (signal?.aborted || this.waiter.active) return this.waiter.start(signal, () => undefined);
    // Nothing sent since the last finish, or all of it already final: no need to wait on Deepgram.
    if (this.sentSeconds === this.utteranceStart || this.finalEnd >= this.sentSeconds - EDGE_S) {
      return Promise.resolve(this.takeUtterance());
    }
    // The pipeline may give up on this utterance (the call ended): its text is dropped.
    const answer = this.waiter.start(signal, () => this.takeUtterance());
    // A reconnecting stream sends Finalize after the replayed audio.
    if (!this.reconnecting) this.finalize();
    return answer;
  }

  async close(): Promise<void> {
    this.closing = true;
    this.closed.abort();
    clearInterval(this.keepAlive);
    this.waiter.settle(this.takeUtterance());
    await closeSocket(this.ws, JSON.stringify({ type: 'CloseStream' }));
  }

  /** Opens a socket to the listen URL; resolves once it is open, rejects when it never opens. */
  private connect(handshakeMs: number): Promise<void> {
    const ws = new WebSocket(this.url, {
      headers: { authorization: `Token ${this.config.apiKey}` },
      handshakeTimeout: handshakeMs,
    });
    this.ws = ws;
    let opened = false;
    let lostBy: unknown;
    ws.on('message', (data, isBinary) => {
      if (!isBinary && ws === this.ws) this.onMessage(data.toString());
    });
    return new Promise<void>((resolve, reject) => {
      ws.once('open', () => {
        opened = true;
        this.openedAt = Date.now();
        resolve();
      });
      ws.once('unexpected-response', (_req, res) => {
        reject(new UpgradeRefused(res.statusCode));
        res.resume();
        ws.terminate();
      });
      ws.on('error', (error) => {
        if (!opened) reject(error);
        else lostBy ??= error;
      });
      ws.once('close', (code) => {
        if (!opened) reject(new Error('closed before it opened'));
        else if (ws === this.ws && !this.closing && !this.failure) {
          const reason = lostBy instanceof Error ? lostBy.message : `closed by the server (${code})`;
          void this.reconnect(`stream lost (${reason})`);
        }
      });
    });
  }

  /** The open stream was lost: reconnect within the bounded attempts and the provider timeout, or fail. */
  private async reconnect(why: string): Promise<void> {
    this.reconnecting = true;
    // A stream that stayed up a while was healthy: this is a new incident with a full budget.
    if (!this.trouble || Date.now() - this.openedAt >= this.config.timeoutMs) {
      this.trouble = { attempts: 0, deadline: Date.now() + this.config.timeoutMs };
    }
    // A Finalize sent on the lost stream gets no answer; its grace restarts when it is sent again.
    this.waiter.disarm();
    const backoffs = this.timing.reconnectBackoffMs;
    let cause: unknown = new Error(why);
    while (this.trouble.attempts < backoffs.length) {
      const backoff = backoffs[this.trouble.attempts++];
      const handshakeMs = this.trouble.deadline - Date.now() - backoff;
      if (handshakeMs <= 0) break;
      logger.warn(`${why}; reconnect ${this.trouble.attempts}/${backoffs.length} in ${backoff} ms`);
      try {
        await sleep(backoff, undefined, { signal: this.closed.signal });
        await this.connect(handshakeMs);
      } catch (error) {
        if (this.closing) return;
        speechEvents.emit('stt_reconnect', { provider: 'deepgram', outcome: 'failed' });
        cause = error;
        why = `reconnect ${this.trouble.attempts} failed (${error instanceof Error ? error.message : String(error)})`;
        if (error instanceof UpgradeRefused && error.isAuth) break;
        continue;
      }
      if (this.closing) return;
      speechEvents.emit('stt_reconnect', { provider: 'deepgram', outcome: 'ok' });
      this.reconnecting = false;
      const replayed = this.replay();
      logger.log(`stream reconnected; replayed ${replayed.toFixed(2)} s of audio`);
      return;
    }
    logger.warn(`${why}; giving up`);
    this.fail(cause);
  }

  /**
   * Sends the reconnected stream the audio no final covers yet, then the Finalize a finish() waits on.
   * Returns the seconds replayed.
   */
  private replay(): number {
    this.trimUnfinalised();
    this.streamOffset = this.unfinalised[0]?.start ?? this.sentSeconds;
    for (const piece of this.unfinalised) this.send(piece.data);
    if (this.waiter.active) this.finalize();
    return this.sentSeconds - this.streamOffset;
  }

  private finalize(): void {
    if (!this.waiter.active) return;
    this.send(JSON.stringify({ type: 'Finalize' }));
    const waitMs = this.interim ? this.timing.finalizePendingWaitMs : this.timing.finalizeGraceMs;
    this.waiter.arm(waitMs, () => this.waiter.settle(this.takeUtterance(true)));
  }

  /** Drops kept audio that a final covers or an answered utterance owns, and what is older than REPLAY_S. */
  private trimUnfinalised(): void {
    const covered = Math.max(this.finalEnd, this.utteranceStart) + 1e-6;
    const oldest = this.sentSeconds - REPLAY_S;
    const kept = this.unfinalised;
    let drop = 0;
    while (drop < kept.length && (kept[drop].end <= covered || kept[drop].start < oldest)) drop++;
    if (drop) this.unfinalised = kept.slice(drop);
  }

  private onMessage(raw: string): void {
    let message: DeepgramResults;
    try {
      message = JSON.parse(raw) as DeepgramResults;
    } catch {
      return;
    }
    if (message.type !== 'Results') return;
    // The stream answers: it is healthy again.
    this.trouble = undefined;
    const end = this.streamOffset + (message.start ?? 0) + (message.duration ?? 0);
    // A late final of the previous utterance (after its grace) must not open the next one's text.
    if (end <= this.utteranceStart + EDGE_S && message.duration) return;
    const best = message.channel?.alternatives?.[0];
    const transcript = best?.transcript?.trim() ?? '';
    if (message.is_final) {
      this.interim = '';
      if (transcript) this.finals.push(transcript);
      const language = best?.languages?.[0] ?? best?.words?.find((w) => w.language)?.language;
      if (transcript && language) this.utteranceLanguage = language;
      this.finalEnd = Math.max(this.finalEnd, end);
      if (transcript && !this.waiter.active) this.onPartial?.(this.finals.join(' '));
    } else if (transcript) {
      this.interim = transcript;
      this.onPartial?.(this.finals.concat(transcript).join(' '));
    }
    if (
      this.waiter.active &&
      (message.from_finalize || (message.speech_final && this.finalEnd >= this.sentSeconds - EDGE_S))
    ) {
      this.waiter.settle(this.takeUtterance());
    }
  }

  /**
   * The utterance's final text, and the start of the next utterance on the session's timeline. `unanswered`: the
   * wait for Finalize's answer ran out, so words heard but not finalised are taken as the interim had them.
   */
  private takeUtterance(unanswered = false): string {
    const text = (unanswered && this.interim ? this.finals.concat(this.interim) : this.finals).join(' ');
    this.interim = '';
    // An utterance with no language answer (nothing said, or one language asked for) keeps the last one.
    if (this.utteranceLanguage) this.language = spokenLanguageOf(this.utteranceLanguage, this.languages);
    this.utteranceLanguage = undefined;
    this.finals = [];
    this.utteranceStart = this.sentSeconds;
    return text;
  }

  private send(data: string | Buffer): void {
    // A socket that is closing drops it; the close then reconnects and replays the audio.
    if (this.ws.readyState !== WebSocket.OPEN) return;
    this.lastSentAt = Date.now();
    this.ws.send(data);
  }

  private fail(error: unknown): ProviderError {
    this.failure ??= new ProviderError('stt', 'deepgram', error);
    this.reconnecting = false;
    clearInterval(this.keepAlive);
    this.waiter.settle(undefined, this.failure);
    return this.failure;
  }
}
