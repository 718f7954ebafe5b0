// What both speech-to-speech sessions are made of besides their protocols: the socket to the provider, the audio
// resampled each way, the promise that the session took its configuration, and how it closes or fails (once,
// telling the conversation only after it opened). Each client says where and how to connect and speaks its own
// messages.
import { LlmError } from '../llm-error';
import { AudioStream } from './realtime-audio';
import type { RealtimeEvent, RealtimeSessionConfig } from './realtime-session';
import { RealtimeSocket } from './realtime-socket';

/** Where a client connects and the audio rates its provider takes and gives. */
export interface RealtimeWire {
  url: string;
  /** The key goes here, never in the URL. */
  headers: Record<string, string>;
  /** How the provider is named in errors. */
  label: string;
  inputRate: number;
  outputRate: number;
}

export abstract class RealtimeSessionBase {
  readonly model: string;
  /** Resolves once the session took its configuration; rejects with the failure that came first. */
  readonly ready: Promise<void>;
  protected readonly socket: RealtimeSocket;
  /** The caller's audio, at the provider's rate. */
  protected readonly input: AudioStream;
  /** The model's audio, at the line's rate. */
  protected readonly output: AudioStream;
  protected configured = false;
  protected closed = false;
  private resolveOpen!: () => void;
  private rejectOpen!: (error: LlmError) => void;

  constructor(
    protected readonly config: RealtimeSessionConfig,
    protected readonly onEvent: (event: RealtimeEvent) => void,
    private readonly wire: RealtimeWire,
  ) {
    this.model = config.model;
    this.input = new AudioStream(config.sampleRate, wire.inputRate);
    this.output = new AudioStream(wire.outputRate, config.sampleRate);
    this.ready = new Promise((resolve, reject) => {
      this.resolveOpen = resolve;
      this.rejectOpen = reject;
    });
    this.ready.catch(() => undefined);
    this.socket = new RealtimeSocket({
      url: wire.url,
      headers: wire.headers,
      label: wire.label,
      timeoutMs: config.timeoutMs,
      onMessage: (message) => this.handle(message),
      onFailure: (error) => this.failed(error),
    });
    // The session must open and take its configuration within the deadline.
    this.socket.expect();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.socket.close();
    this.rejectOpen(new LlmError(`${this.wire.label} session closed before it opened`, 'aborted'));
  }

  /** One message of the provider's, parsed. */
  protected abstract handle(message: Record<string, unknown>): void;

  /** The provider took the configuration: the session is open. */
  protected opened(): void {
    this.configured = true;
    this.socket.settle();
    this.resolveOpen();
  }

  private failed(error: LlmError): void {
    if (this.closed) return;
    this.closed = true;
    this.rejectOpen(error);
    if (this.configured) this.onEvent({ type: 'failed', error });
  }
}

/** Waits for a new session to open; one that does not is closed (nothing left running) and the failure thrown. */
export async function opened<T extends RealtimeSessionBase>(session: T): Promise<T> {
  try {
    await session.ready;
  } catch (error) {
    session.close();
    throw error;
  }
  return session;
}
