import { randomUUID } from 'node:crypto';
import { IncomingMessage, Server, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { SpanKind } from '@opentelemetry/api';
import { WebSocket, WebSocketServer } from 'ws';
import { MessageHeaders } from '@vap/messages';
import { inSpan, RequestContext } from '@vap/messaging';
import { refusedUpgrades } from '../metrics/voice.metrics';
import { REFUSAL_CLOSE } from './stream-admission';
import type { Admission, StreamAdmission } from './stream-admission';

/** A request id a client may choose; anything else (too long, odd characters) gets a fresh one. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export type AcceptedStream = Extract<Admission, { ok: true }>;

export interface MediaStreamServerOptions {
  admission: StreamAdmission;
  /** An admitted upgrade became a WebSocket: start its session, which holds the stream's slot until it finished. */
  onAccepted: (socket: WebSocket, stream: AcceptedStream) => void;
  log: (level: 'warn' | 'error', message: string) => void;
  /**
   * MEDIA_MAX_MESSAGE_BYTES: a media message is one 20 ms frame (about 300 bytes as JSON); ws refuses a larger
   * one before buffering it whole, closing the stream with 1009.
   */
  maxMessageBytes: number;
}

/**
 * Carriers' media WebSockets on the service's HTTP server (`upgrade` at `/media/<carrier>/<callId>`), and
 * browser sessions' (`/browser/<sessionId>`, binary PCM16 audio, the origin checked by the calls service). An
 * upgrade is admitted (token, call, carrier signature, replay) before the handshake completes; a refusal
 * is a plain HTTP status on the raw socket, so no audio ever flows on a refused stream. A browser's refusal of a
 * well-formed request (and a carrier's full replica) is a handshake closed at once with an application code and
 * the cause instead, since browsers hide a refused handshake's status from the page; no session starts on it.
 */
export class MediaStreamServer {
  private readonly wss: WebSocketServer;
  private server?: Server;
  private readonly onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) =>
    void this.upgrade(req, socket, head);

  constructor(private readonly options: MediaStreamServerOptions) {
    this.wss = new WebSocketServer({
      noServer: true,
      maxPayload: options.maxMessageBytes,
      perMessageDeflate: false,
    });
  }

  attach(server: Server): void {
    this.server = server;
    server.on('upgrade', this.onUpgrade);
  }

  /** Stops taking upgrades and closes every media socket still open. */
  close(): void {
    this.server?.off('upgrade', this.onUpgrade);
    for (const client of this.wss.clients) client.terminate();
    this.wss.close();
  }

  private async upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    // A client that goes away mid-admission must not raise an unhandled 'error'.
    socket.on('error', () => socket.destroy());
    let admission: Admission;
    // Traced and logged like an HTTP request: the attach command carries the upgrade's request id.
    const given = req.headers[MessageHeaders.requestId.toLowerCase()];
    const requestId = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    try {
      admission = await RequestContext.run({ requestId }, () =>
        inSpan(
          'media upgrade',
          SpanKind.SERVER,
          { 'http.route': browserRoute(req.url) ? '/browser/:sessionId' : '/media/:carrier/:callId' },
          async (span) => {
            const decided = await this.options.admission.admit(req.url ?? '/', req.headers);
            span.setAttribute('http.status_code', decided.ok ? 101 : decided.status);
            return decided;
          },
        ),
      );
    } catch (err) {
      this.options.log('error', `media upgrade admission failed: ${(err as Error).message}`);
      admission = { ok: false, reason: 'calls_unavailable', status: 503 };
    }
    if (!admission.ok) {
      refusedUpgrades.inc({ reason: admission.reason });
      const close = admission.close ?? REFUSAL_CLOSE[admission.reason];
      if (close && !socket.destroyed) {
        this.wss.handleUpgrade(req, socket, head, (ws) => ws.close(close.code, close.reason));
      } else refuse(socket, admission.status, admission.reason);
      return;
    }
    const accepted = admission;
    if (socket.destroyed) {
      accepted.slot.release();
      this.options.log(
        'warn',
        `call ${accepted.context.callId}: the carrier left before its stream was accepted`,
      );
      return;
    }
    // A handshake that fails (ws answers the bad request itself) gives the replica's place back with its socket;
    // an accepted stream holds it until its session finished (onAccepted).
    const release = () => accepted.slot.release();
    socket.once('close', release);
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      socket.off('close', release);
      this.options.onAccepted(ws, accepted);
    });
  }
}

/** Whether an upgrade's target is a browser session's stream (for the trace's route). */
function browserRoute(target: string | undefined): boolean {
  return /(^|\/)browser\/[^/?]+(\?|$)/.test(target ?? '');
}

/** Answers an upgrade with a plain HTTP error and closes the connection. */
function refuse(socket: Duplex, status: number, reason: string): void {
  if (socket.destroyed) return;
  const body = `${reason}\n`;
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n` +
      'Connection: close\r\n' +
      'Content-Type: text/plain; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      '\r\n' +
      body,
  );
}
