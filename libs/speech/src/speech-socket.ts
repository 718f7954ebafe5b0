// What the streaming text-to-speech adapters over WebSockets share (ElevenLabs stream-input, Cartesia): one
// socket per synthesis, read as a queue of JSON text frames.
import WebSocket from 'ws';
import { providerWords } from '@vap/llm';

/** Largest frame taken from a provider: a base64 chunk of a few seconds of 16 kHz audio is far below it. */
const MAX_FRAME_BYTES = 2 << 20;
/** Frames read ahead of a slow consumer before the socket stops reading (TCP backpressure does the rest). */
const READ_AHEAD_FRAMES = 16;
/** Of an HTTP refusal's body, what is read (and quoted) at most. */
const REFUSAL_BODY_BYTES = 4096;
/** A provider that does not answer our close within this is cut off. */
const CLOSE_GRACE_MS = 1000;

/** The provider answered the upgrade with an HTTP status instead of a WebSocket (a refused key, a bad query). */
export class SocketRefused extends Error {
  constructor(
    readonly status: number | undefined,
    words: string,
  ) {
    super(`upgrade refused: HTTP ${status}${words ? `: ${words}` : ''}`);
    this.name = 'SocketRefused';
  }
}

/** The provider closed the socket with an error code (its reason says why: a refused key, a failure). */
export class SocketClosed extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
  ) {
    super(`closed by the provider (${code}${reason ? `: ${reason}` : ''})`);
    this.name = 'SocketClosed';
  }
}

/** Close codes that end a stream normally. */
const NORMAL_CLOSE = new Set([1000, 1005]);

/**
 * One provider WebSocket read frame by frame. It lives as long as one synthesis: `signal` (the request's
 * deadline joined with the caller's) cuts it off and fails a pending read with the signal's reason.
 */
export class SpeechSocket {
  private readonly frames: string[] = [];
  private waiter: { resolve(frame: string | undefined): void; reject(error: unknown): void } | undefined;
  /** Set once the socket is gone: undefined error for a normal close. */
  private ended: { error?: unknown } | undefined;
  private paused = false;
  /** Sent before the socket closes on an abort (a cancellation the protocol has), then a normal close. */
  farewell: unknown;
  private readonly onAbort = () => {
    if (this.farewell !== undefined) this.send(this.farewell);
    this.close();
    this.end(this.signal.reason, true);
  };

  private constructor(
    private readonly ws: WebSocket,
    private readonly signal: AbortSignal,
  ) {
    ws.on('message', (data, isBinary) => {
      // The protocols served here answer in JSON text; a binary frame is not one of their messages. Once given
      // up on (abort, error), what still arrives while the socket closes is not read.
      if (isBinary || this.ended) return;
      this.frames.push(data.toString());
      if (this.frames.length >= READ_AHEAD_FRAMES && !this.paused) {
        this.paused = true;
        ws.pause();
      }
      this.wake();
    });
    ws.on('error', (error) => {
      ws.terminate();
      this.end(error, true);
    });
    ws.on('close', (code, reason) =>
      this.end(NORMAL_CLOSE.has(code) ? undefined : new SocketClosed(code, reason.toString().slice(0, 300))),
    );
    signal.addEventListener('abort', this.onAbort, { once: true });
  }

  /** Opens the socket; rejects with SocketRefused, a network error or the signal's reason. */
  static open(url: string, headers: Record<string, string>, signal: AbortSignal): Promise<SpeechSocket> {
    if (signal.aborted) return Promise.reject(signal.reason);
    const ws = new WebSocket(url, { headers, maxPayload: MAX_FRAME_BYTES, followRedirects: false });
    return new Promise<SpeechSocket>((resolve, reject) => {
      const onAbort = () => {
        ws.terminate();
        reject(signal.reason);
      };
      const onError = (error: Error) => {
        settle();
        reject(error);
      };
      const onClose = () => {
        settle();
        reject(new Error('closed before it opened'));
      };
      const settle = () => {
        signal.removeEventListener('abort', onAbort);
        ws.off('error', onError);
        ws.off('close', onClose);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      ws.on('error', onError);
      ws.once('close', onClose);
      ws.once('open', () => {
        settle();
        resolve(new SpeechSocket(ws, signal));
      });
      ws.once('unexpected-response', (_req, res) => {
        settle();
        // ws emits no error of its own once this is handled; the socket is ours to end.
        ws.on('error', () => undefined);
        const parts: Buffer[] = [];
        let size = 0;
        res.on('data', (part: Buffer) => {
          if (size < REFUSAL_BODY_BYTES) parts.push(part);
          size += part.length;
        });
        const done = () => {
          ws.terminate();
          const body = Buffer.concat(parts).subarray(0, REFUSAL_BODY_BYTES).toString();
          reject(new SocketRefused(res.statusCode, providerWords(body)));
        };
        res.once('end', done);
        res.once('error', done);
        res.once('aborted', done);
        // The deadline still bounds a refusal whose body never ends.
        signal.addEventListener('abort', () => res.destroy(), { once: true });
      });
    });
  }

  /** Sends one JSON message; dropped once the socket is closing (the read that follows reports why). */
  send(message: unknown): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  /** The next text frame; undefined once the provider closed normally and every frame was read. */
  next(): Promise<string | undefined> {
    const frame = this.frames.shift();
    if (frame !== undefined) {
      if (this.paused && this.frames.length < READ_AHEAD_FRAMES / 2) {
        this.paused = false;
        this.ws.resume();
      }
      return Promise.resolve(frame);
    }
    if (this.ended) {
      return this.ended.error === undefined ? Promise.resolve(undefined) : Promise.reject(this.ended.error);
    }
    if (this.waiter) return Promise.reject(new Error('a read is already waiting'));
    return new Promise((resolve, reject) => (this.waiter = { resolve, reject }));
  }

  /** Closes the socket (a normal close; cut off when the provider does not answer it). Idempotent. */
  close(): void {
    this.signal.removeEventListener('abort', this.onAbort);
    const ws = this.ws;
    if (ws.readyState === WebSocket.CLOSED) return;
    if (ws.readyState === WebSocket.CONNECTING || ws.readyState === WebSocket.CLOSING) {
      if (ws.readyState === WebSocket.CONNECTING) ws.terminate();
      return;
    }
    ws.close(1000);
    const cut = setTimeout(() => ws.terminate(), CLOSE_GRACE_MS);
    cut.unref();
    ws.once('close', () => clearTimeout(cut));
  }

  /** Whether the socket is fully closed (for tests and diagnostics). */
  get closed(): boolean {
    return this.ws.readyState === WebSocket.CLOSED;
  }

  private wake(): void {
    const waiter = this.waiter;
    if (!waiter) return;
    this.waiter = undefined;
    void this.next().then(waiter.resolve, waiter.reject);
  }

  private end(error: unknown, drop = false): void {
    // Given up (abort, network error): what was read ahead is dropped with the socket.
    if (drop) this.frames.length = 0;
    // The first reason wins: an error and then its close are one failure.
    this.ended ??= { error };
    this.signal.removeEventListener('abort', this.onAbort);
    // Frames already read go out first; the end (or the failure) after them.
    if (this.frames.length === 0) this.wake();
  }
}

/** The WebSocket origin of an HTTP(S) base URL (https -> wss), without a trailing slash. */
export function socketBase(baseUrl: string): string {
  return baseUrl
    .trim()
    .replace(/\/+$/, '')
    .replace(/^http(s?):\/\//i, 'ws$1://');
}
