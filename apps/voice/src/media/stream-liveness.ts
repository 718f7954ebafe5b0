import type { WebSocket } from 'ws';

export interface StreamLivenessOptions {
  /** MEDIA_PING_INTERVAL_MS: a ping this often; its pong must come before the next one is due. */
  pingIntervalMs: number;
  /** MEDIA_INBOUND_SILENCE_MS: the longest a stream may send nothing. */
  silenceMs: number;
  /** Wall clock in ms. */
  now?: () => number;
}

/** Why a stream is no longer alive: it went quiet, or it stopped answering pings. */
export type LivenessFault = 'silent' | 'unresponsive';

/**
 * Whether a media stream's carrier is still there. Carriers send frames without pause (silence too), so a stream
 * that sends nothing has lost its carrier; one that stops answering pings has stopped reading. A single timer per
 * stream checks both; the frame path only stamps a number.
 */
export class StreamLiveness {
  private readonly now: () => number;
  private heardAt: number;
  private pingedAt: number;
  private awaitingPong = false;
  private checkedAt: number;
  private readonly period: number;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly socket: WebSocket,
    private readonly options: StreamLivenessOptions,
    private readonly onFault: (fault: LivenessFault) => void,
  ) {
    this.now = options.now ?? Date.now;
    this.heardAt = this.pingedAt = this.checkedAt = this.now();
    socket.on('pong', () => (this.awaitingPong = false));
    // Checked a few times per deadline, so a dead stream is found within a quarter deadline of it.
    this.period = Math.max(10, Math.min(options.pingIntervalMs, options.silenceMs) / 4);
    this.timer = setInterval(() => this.check(), this.period);
    this.timer.unref();
  }

  /** A message arrived. */
  heard(): void {
    this.heardAt = this.now();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private check(): void {
    const now = this.now();
    const stalled = now - this.checkedAt > 2 * this.period;
    this.checkedAt = now;
    // A check that fires late had this process stalled: the frames and pongs that came meanwhile wait unread
    // behind the timers, so the carrier is not judged until they have been read.
    if (stalled) return;
    if (now - this.heardAt >= this.options.silenceMs) return this.fault('silent');
    if (now - this.pingedAt < this.options.pingIntervalMs) return;
    if (this.awaitingPong) return this.fault('unresponsive');
    this.awaitingPong = true;
    this.pingedAt = now;
    try {
      this.socket.ping();
    } catch {
      // Not open any more: its close is on its way.
    }
  }

  private fault(fault: LivenessFault): void {
    this.stop();
    this.onFault(fault);
  }
}
