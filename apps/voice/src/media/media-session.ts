import type { RawData, WebSocket } from 'ws';
import type { VoiceCallContext } from '@vap/contracts';
import { MediaStreamCodec, MediaStreamCommand, MediaStreamEvent, sharedPacingClock } from '@vap/media';
import {
  voicemailDetected,
  type ConversationResult,
  type LiveConversation,
  type MediaTransport,
} from '../conversation';

/** WebSocket close codes (RFC 6455) the session uses. */
export const CLOSE_NORMAL = 1000;
export const CLOSE_UNSUPPORTED_DATA = 1003;
export const CLOSE_INVALID_PAYLOAD = 1007;
export const CLOSE_INTERNAL_ERROR = 1011;
export const CLOSE_GOING_AWAY = 1001;

/**
 * Events held while the conversation is being built (voice lookup, providers): 10 s of 20 ms frames. A
 * pipeline that takes longer has failed anyway; beyond it the stream is closed rather than buffered.
 */
const MAX_PENDING_EVENTS = 500;

/** end_call_reason when the conversation could not be started (voice lookup, providers, the pipeline). */
export const PIPELINE_FAILED_REASON = 'voice_pipeline_failed';

export interface MediaSessionOptions {
  context: VoiceCallContext;
  socket: WebSocket;
  codec: MediaStreamCodec;
  /** Builds the call's conversation over the transport; a rejection fails the call cleanly. */
  startConversation: (transport: MediaTransport) => Promise<LiveConversation>;
  /** Reports the outcome (recording, calls.voice.ended); the session is over when it settles. */
  finish: (result: ConversationResult) => Promise<void>;
  /** Hangs the call up through the calls service when no conversation could run. */
  hangup: (reason: string) => Promise<void>;
  /** MEDIA_TIME_SCALE, for the media seconds of a call whose conversation never started. */
  timeScale: number;
  log: (level: 'warn' | 'error', message: string) => void;
  now?: () => number;
}

/**
 * One accepted media stream: decodes the carrier's frames into neutral events for the call's conversation,
 * encodes what the conversation sends, and reports the outcome once the conversation settles. A frame the
 * protocol does not allow closes the socket with a reason; nothing a carrier sends can crash the process.
 */
export class MediaSession {
  readonly callId: string;
  readonly partnerId: string;
  /** Settles once the outcome has been reported (or failed to be) and the socket is closed. */
  readonly finished: Promise<void>;
  private conversation: LiveConversation | null = null;
  private pending: MediaStreamEvent[] = [];
  private streamId: string | null = null;
  private socketClosed = false;
  private conversationDone = false;
  private endRequested: string | null = null;
  /** The call has ended (terminate()): the conversation stops without a farewell or a hang-up. */
  private terminated = false;
  /** A machine answer that came while the conversation was being built; it learns it once built. */
  private pendingAnsweredBy: string | null = null;
  private readonly startedAt: number;
  private readonly now: () => number;

  constructor(private readonly options: MediaSessionOptions) {
    this.callId = options.context.callId;
    this.partnerId = options.context.partnerId;
    this.now = options.now ?? Date.now;
    this.startedAt = this.now();
    options.socket.on('message', (data, isBinary) => this.onMessage(data, isBinary));
    options.socket.on('close', () => this.onSocketClosed());
    options.socket.on('error', (err) => {
      options.log('warn', `media socket of call ${this.callId} failed: ${err.message}`);
    });
    this.finished = this.run().catch((err: Error) => {
      options.log('error', `media session of call ${this.callId} failed: ${err.message}`);
    });
  }

  /**
   * Ends the call from outside (the drain deadline, the balance guard): a farewell if the conversation has
   * time for one, then the hang-up with `reason`. False when the call was already ending.
   */
  end(reason: string): boolean {
    if (this.conversationDone || this.terminated || this.endRequested !== null) return false;
    this.endRequested = reason;
    // A conversation still being built is ended by run() once it is.
    if (!this.conversation) return true;
    const conversation = this.conversation;
    let accepted = false;
    this.guarded(() => (accepted = conversation.end(reason)));
    return accepted;
  }

  /**
   * The carrier's machine detection answered after the stream opened: a machine answer to an agent with
   * voicemail detection leaves the voicemail message and hangs up. True when the call does so.
   */
  answeredBy(answeredBy: string): boolean {
    if (this.conversationDone || this.terminated || this.endRequested !== null) return false;
    if (!this.conversation) {
      if (!voicemailDetected(this.options.context.agent, answeredBy)) return false;
      this.pendingAnsweredBy = answeredBy;
      return true;
    }
    const conversation = this.conversation;
    let acted = false;
    this.guarded(() => (acted = conversation.answeredBy(answeredBy)));
    return acted;
  }

  /**
   * The call has reached a terminal status, whatever ended it: the conversation stops now (no farewell, no
   * hang-up, providers aborted, no more audio) and the socket closes at once; the outcome is still reported.
   * False when the conversation had already finished.
   */
  terminate(): boolean {
    if (this.conversationDone || this.terminated) return false;
    this.terminated = true;
    const conversation = this.conversation;
    // A conversation still being built is terminated by run() once it is.
    if (conversation) this.guarded(() => conversation.terminate());
    this.close(CLOSE_NORMAL, 'call ended');
    return true;
  }

  private async run(): Promise<void> {
    const transport: MediaTransport = { send: (command) => this.send(command) };
    let result: ConversationResult;
    try {
      this.conversation = await this.options.startConversation(transport);
    } catch (err) {
      result = await this.failed('the conversation could not start', err as Error);
    }
    if (this.conversation) {
      const conversation = this.conversation;
      // Whatever arrived while the pipeline was being built goes in first, in order; a call that ended
      // meanwhile has nothing left to hear.
      const pending = this.pending.splice(0);
      if (this.terminated) {
        this.guarded(() => conversation.terminate());
      } else {
        for (const event of pending) this.guarded(() => conversation.onEvent(event));
        if (this.endRequested !== null) this.guarded(() => conversation.end(this.endRequested!));
        else if (this.pendingAnsweredBy !== null)
          this.guarded(() => conversation.answeredBy(this.pendingAnsweredBy!));
      }
      if (this.socketClosed) this.guarded(() => conversation.onClosed());
      // A pipeline that breaks still ends the call cleanly: hang-up, report, socket closed.
      result = await conversation.done.catch((err: Error) => this.failed('the conversation failed', err));
    }
    this.conversationDone = true;
    try {
      await this.options.finish(result!);
    } finally {
      this.close(CLOSE_NORMAL, 'call ended');
    }
  }

  private async failed(what: string, err: Error): Promise<ConversationResult> {
    this.options.log('error', `call ${this.callId}: ${what}: ${err.message}`);
    this.close(CLOSE_INTERNAL_ERROR, what);
    await this.options.hangup(PIPELINE_FAILED_REASON).catch((hangupError: Error) => {
      this.options.log('error', `call ${this.callId}: hang-up failed: ${hangupError.message}`);
    });
    return {
      endCallReason: PIPELINE_FAILED_REASON,
      mediaSeconds: ((this.now() - this.startedAt) * this.options.timeScale) / 1000,
      recording: null,
    };
  }

  private onMessage(data: RawData, isBinary: boolean): void {
    // Carriers' frames arrive all the time on a busy replica: a checkpoint where frames due on every call's
    // pacing clock leave, instead of waiting for the event loop's next timer phase.
    sharedPacingClock.catchUp();
    if (this.conversationDone || this.socketClosed) return;
    if (isBinary) {
      this.protocolError(CLOSE_UNSUPPORTED_DATA, 'binary frames are not part of the media protocol');
      return;
    }
    const text = Buffer.isBuffer(data)
      ? data.toString('utf8')
      : Buffer.concat(data as Buffer[]).toString('utf8');
    const decoded = this.options.codec.decode(text);
    if (!decoded.ok) {
      const { reason, field } = decoded.error;
      const what = field ? `${reason} (${field})` : reason;
      this.protocolError(CLOSE_INVALID_PAYLOAD, `invalid ${this.options.codec.protocol} message: ${what}`);
      return;
    }
    const event = decoded.message;
    if (!event) return;
    if (event.type === 'started') this.streamId = event.streamId;
    if (this.conversation) {
      const conversation = this.conversation;
      this.guarded(() => conversation.onEvent(event));
    } else if (this.pending.length < MAX_PENDING_EVENTS) {
      this.pending.push(event);
    } else {
      this.protocolError(CLOSE_INTERNAL_ERROR, 'the conversation did not start in time');
    }
  }

  private send(command: MediaStreamCommand): void {
    // Before `started` the carrier has named no stream to play into; after close there is no one to hear.
    if (this.streamId === null || this.socketClosed) return;
    const socket = this.options.socket;
    if (socket.readyState !== socket.OPEN) return;
    socket.send(this.options.codec.encode(command, this.streamId));
  }

  private protocolError(code: number, reason: string): void {
    this.options.log('warn', `call ${this.callId}: closing the media stream: ${reason}`);
    this.close(code, reason);
  }

  private close(code: number, reason: string): void {
    const socket = this.options.socket;
    if (socket.readyState === socket.CLOSED || socket.readyState === socket.CLOSING) return;
    // A close reason may hold at most 123 bytes.
    socket.close(code, Buffer.from(reason).subarray(0, 123).toString());
    this.onSocketClosed();
  }

  private onSocketClosed(): void {
    if (this.socketClosed) return;
    this.socketClosed = true;
    if (!this.conversationDone) this.guarded(() => this.conversation?.onClosed());
  }

  /**
   * Runs a call into the conversation from a socket callback, where a throw would take the process down:
   * a pipeline that throws is asked to end (it settles `done`, and the call is reported) and the stream closes.
   */
  private guarded(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.options.log('error', `call ${this.callId}: the conversation threw: ${(err as Error).message}`);
      if (this.endRequested === null) {
        this.endRequested = PIPELINE_FAILED_REASON;
        try {
          this.conversation?.end(PIPELINE_FAILED_REASON);
        } catch {
          // Already logged; `done` is what the session waits for.
        }
      }
      this.close(CLOSE_INTERNAL_ERROR, 'conversation failed');
    }
  }
}
