// What both speech-to-speech clients share: one WebSocket to the provider with JSON messages either way, every
// way it can fail turned into one LlmError (refused upgrade, network error, a close we did not ask for, silence
// past the deadline), and a close that leaves nothing running. Keys go in headers, never in the URL, so no error
// or log line can carry one.
import WebSocket from 'ws';
import { LlmError } from '../llm-error';

/** Longest error body of a refused upgrade quoted in the error. */
const BODY_QUOTE_CHARS = 300;

export interface RealtimeSocketOptions {
  url: string;
  headers: Record<string, string>;
  /** How the provider is named in errors (OpenAI Realtime, Gemini Live). */
  label: string;
  /** Longest silence while an answer is due, and the time the upgrade may take, wall ms. */
  timeoutMs: number;
  /** One message from the provider, parsed (frames that are not JSON objects are dropped). */
  onMessage(message: Record<string, unknown>): void;
  /** The socket failed; called once, never after close(). */
  onFailure(error: LlmError): void;
}

export class RealtimeSocket {
  /** Resolves when the socket is open; rejects with the failure that came first. */
  readonly opened: Promise<void>;
  private readonly ws: WebSocket;
  private closed = false;
  private failed = false;
  private watchdog: NodeJS.Timeout | null = null;
  private rejectOpen: ((error: LlmError) => void) | null = null;

  constructor(private readonly options: RealtimeSocketOptions) {
    this.ws = new WebSocket(options.url, {
      headers: options.headers,
      handshakeTimeout: options.timeoutMs,
      // Audio answers can be large; a provider message is bounded all the same.
      maxPayload: 16 << 20,
    });
    this.opened = new Promise((resolve, reject) => {
      this.rejectOpen = reject;
      this.ws.once('open', () => {
        this.rejectOpen = null;
        resolve();
      });
    });
    // Nobody may be waiting on it (a failure after the socket opened goes to onFailure).
    this.opened.catch(() => undefined);
    this.ws.on('message', (data, isBinary) => this.message(data, isBinary));
    this.ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (part: string) => {
        if (body.length < BODY_QUOTE_CHARS) body += part;
      });
      const refused = () =>
        this.fail(
          new LlmError(
            `${options.label} refused the session: HTTP ${res.statusCode} ${quote(body)}`.trim(),
            'status',
            res.statusCode,
          ),
        );
      res.once('end', refused);
      res.once('error', refused);
    });
    this.ws.on('error', (error) =>
      this.fail(new LlmError(`${options.label} could not be reached: ${error.message}`, 'network')),
    );
    this.ws.once('close', (code, reason) =>
      this.fail(
        new LlmError(
          `${options.label} closed the session (${code}${reason.length ? `: ${quote(reason.toString())}` : ''})`,
          'network',
        ),
      ),
    );
  }

  /** Sends one message; dropped when the socket is not open (a failure is on its way, or we closed it). */
  send(message: Record<string, unknown>): void {
    if (this.closed || this.ws.readyState !== WebSocket.OPEN) return;
    this.ws.send(JSON.stringify(message));
  }

  /** An answer is due: the provider must send something within the deadline (each message re-arms it). */
  expect(): void {
    if (this.closed || this.failed) return;
    this.clearWatchdog();
    this.watchdog = setTimeout(() => {
      this.watchdog = null;
      this.fail(
        new LlmError(`${this.options.label} sent nothing for ${this.options.timeoutMs} ms`, 'timeout'),
      );
    }, this.options.timeoutMs);
  }

  /** Nothing is due any more (the reply is complete). */
  settle(): void {
    this.clearWatchdog();
  }

  /** Whether an answer is due now. */
  get expecting(): boolean {
    return this.watchdog !== null;
  }

  /** Closes the socket and stops the watchdog; nothing more is told. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.clearWatchdog();
    this.rejectOpen?.(new LlmError(`${this.options.label} session closed before it opened`, 'aborted'));
    this.rejectOpen = null;
    this.ws.removeAllListeners('message');
    // A late error of a socket being torn down must not be unhandled.
    this.ws.on('error', () => undefined);
    if (this.ws.readyState === WebSocket.OPEN) this.ws.close(1000);
    else this.ws.terminate();
  }

  private message(data: WebSocket.RawData, isBinary: boolean): void {
    if (this.closed || this.failed) return;
    // An answer is under way: the deadline counts from this message.
    if (this.watchdog) this.expect();
    let message: unknown;
    try {
      const text = Array.isArray(data)
        ? Buffer.concat(data).toString('utf8')
        : Buffer.from(data as ArrayBuffer).toString('utf8');
      message = JSON.parse(text);
    } catch {
      // Gemini sends its JSON in binary frames too; anything that is not JSON carries nothing for us.
      void isBinary;
      return;
    }
    if (!message || typeof message !== 'object' || Array.isArray(message)) return;
    this.options.onMessage(message as Record<string, unknown>);
  }

  /** Reports the first failure once, and tears the socket down. */
  fail(error: LlmError): void {
    if (this.closed || this.failed) return;
    this.failed = true;
    this.clearWatchdog();
    this.rejectOpen?.(error);
    this.rejectOpen = null;
    this.ws.on('error', () => undefined);
    this.ws.terminate();
    this.options.onFailure(error);
  }

  private clearWatchdog(): void {
    if (this.watchdog) clearTimeout(this.watchdog);
    this.watchdog = null;
  }
}

/** A provider's text, one line and bounded, for an error message. */
function quote(text: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, BODY_QUOTE_CHARS);
}

/** A provider API base as a WebSocket origin and path: http(s) -> ws(s), no trailing slash. */
export function socketBase(baseUrl: string): string {
  return baseUrl
    .trim()
    .replace(/\/+$/, '')
    .replace(/^http(s?):\/\//i, 'ws$1://');
}
