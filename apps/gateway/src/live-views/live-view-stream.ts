import { Logger } from '@nestjs/common';

/** Where a live view writes: the response, as far as the stream needs it. */
export interface LiveViewSink {
  write(chunk: string): void;
  end(): void;
  /** Bytes written and not yet taken by the client. */
  readonly buffered: number;
}

/** What a live view shows and how it knows it is over. */
export interface LiveViewSource<T> {
  /** The view now; null once it is gone (no longer the account's). */
  fetch(): Promise<T | null>;
  /** True once nothing more will change: the call or session ended and its processing is complete. */
  ended(view: T): boolean;
  /** False once the console session that opened the view is over (signed out, removed, suspended). */
  stillSignedIn(): Promise<boolean>;
}

export interface LiveViewTiming {
  /** Re-read without an event this often: the safety net for an event this replica missed. */
  recheckMs: number;
  /** A comment line this often, so proxies and the browser see a live connection. */
  keepaliveMs: number;
  /** The stream closes after this long; the browser's EventSource reconnects (checked afresh). */
  maxLifetimeMs: number;
  /** The console session is checked this often, so a signed-out user's views close. */
  sessionCheckMs: number;
}

/** What the browser waits before reconnecting after the stream closed without `end` (the SSE `retry` field). */
export const RECONNECT_MS = 3000;
/** A client this far behind is not reading: the stream closes rather than buffer more. */
export const MAX_BUFFERED_BYTES = 1024 * 1024;

/** Why a stream ended with `event: end`. */
export type EndReason = 'ended' | 'not_found';

/**
 * One open live view (server-sent events): `event: snapshot` with the view's JSON at once and whenever it
 * changes, a `: keepalive` comment now and then, and `event: end` once the view will not change again, after
 * which the stream closes. A change is looked for when `refresh` is called (a domain event) and on a slow
 * re-check; reads never overlap (a refresh during one runs once after it). Everything it holds (timers, the
 * event registration, its slot) is let go by `close`, which runs once: on end, at the maximum lifetime, when
 * the session is over, when the client is too far behind, and when the client disconnects.
 */
export class LiveViewStream<T> {
  private readonly logger = new Logger(LiveViewStream.name);
  private readonly timers: NodeJS.Timeout[] = [];
  private unwatch?: () => void;
  private last?: string;
  private closed = false;
  private reading = false;
  private readAgain = false;

  constructor(
    private readonly sink: LiveViewSink,
    private readonly source: LiveViewSource<T>,
    private readonly timing: LiveViewTiming,
    private readonly onClose: () => void,
  ) {}

  get isClosed(): boolean {
    return this.closed;
  }

  /** Sends `first` at once, then follows the view: `watch` registers for its events and answers the unwatch. */
  start(first: T, watch: (onChange: () => void) => () => void): void {
    this.write(`retry: ${RECONNECT_MS}\n\n`);
    this.show(first);
    if (this.closed) return;
    this.unwatch = watch(() => this.refresh());
    this.timers.push(
      setInterval(() => this.refresh(), this.timing.recheckMs),
      setInterval(() => this.write(': keepalive\n\n'), this.timing.keepaliveMs),
      setInterval(() => void this.checkSession(), this.timing.sessionCheckMs),
      setTimeout(() => this.close(), this.timing.maxLifetimeMs),
    );
  }

  /** Reads the view again and sends it if it changed. */
  refresh(): void {
    if (this.closed) return;
    if (this.reading) {
      this.readAgain = true;
      return;
    }
    this.reading = true;
    this.source
      .fetch()
      .then((view) => {
        if (this.closed) return;
        if (view === null) this.finish('not_found');
        else this.show(view);
      })
      .catch((err: Error) => {
        // A failed read (a service restarting, a timeout) shows nothing new; the next re-check tries again.
        this.logger.warn(`a live view could not be read: ${err.message}`);
      })
      .finally(() => {
        this.reading = false;
        if (this.readAgain && !this.closed) {
          this.readAgain = false;
          this.refresh();
        }
      });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.length = 0;
    this.unwatch?.();
    this.unwatch = undefined;
    this.sink.end();
    this.onClose();
  }

  private show(view: T): void {
    const json = JSON.stringify(view);
    if (json !== this.last) {
      this.last = json;
      this.write(`event: snapshot\ndata: ${json}\n\n`);
    }
    if (this.source.ended(view)) this.finish('ended');
  }

  private finish(reason: EndReason): void {
    this.write(`event: end\ndata: ${JSON.stringify({ reason })}\n\n`);
    this.close();
  }

  private async checkSession(): Promise<void> {
    try {
      if (!(await this.source.stillSignedIn())) this.close();
    } catch (err) {
      this.logger.warn(`a live view's session could not be checked: ${(err as Error).message}`);
    }
  }

  private write(chunk: string): void {
    if (this.closed) return;
    if (this.sink.buffered > MAX_BUFFERED_BYTES) {
      this.close();
      return;
    }
    this.sink.write(chunk);
  }
}
