import type { RawData, WebSocket } from 'ws';
import { MediaStreamEndReasons } from '@vap/messages';
import type { MediaStreamEndReason, TransferOutcome, VoiceCallContext } from '@vap/messages';
import {
  FRAME_MS,
  MediaClockBudget,
  MULAW_FRAME_BYTES,
  MULAW_SILENCE,
  MediaSessionNotice,
  MediaStreamCodec,
  MediaStreamCommand,
  MediaStreamEvent,
  sharedPacingClock,
} from '@vap/media';
import {
  voicemailDetected,
  type ConversationResult,
  type LiveConversation,
  type MediaTransport,
} from '../conversation';
import { cutStreams, ignoredStreamMessages, inboundAudioDropped } from '../metrics/voice.metrics';
import { StreamLiveness, type LivenessFault } from './stream-liveness';

/** WebSocket close codes (RFC 6455) the session uses. */
export const CLOSE_NORMAL = 1000;
export const CLOSE_UNSUPPORTED_DATA = 1003;
export const CLOSE_INVALID_PAYLOAD = 1007;
export const CLOSE_INTERNAL_ERROR = 1011;
export const CLOSE_GOING_AWAY = 1001;
export const CLOSE_POLICY_VIOLATION = 1008;

/**
 * Events held while the conversation is being built (voice lookup, providers): 10 s of 20 ms frames. A
 * pipeline that takes longer has failed anyway; beyond it the stream is closed rather than buffered.
 */
const MAX_PENDING_EVENTS = 500;
/**
 * The same buffer by the size of the messages held: 256 KiB is about 10 s of a carrier's 20 ms frames, while a
 * flood of large messages reaches it long before the count.
 */
const MAX_PENDING_BYTES = 256 * 1024;
/**
 * A carrier's media message is about twice its audio (base64, JSON); a stream may send 16 times its audio's
 * worth in messages (marks, DTMF, overhead, its burst). Beyond that it only costs the replica CPU to parse, and
 * the stream is cut.
 */
const MESSAGE_BYTES_PER_AUDIO_BYTE = 16;

/** Silence frames a muted client's feed catches up at once after a stall (a second's worth). */
const MUTE_CATCH_UP_FRAMES = 50;

/**
 * Typed caller lines (a browser's user_text): a burst of this many, then one every USER_TEXT_INTERVAL_MS (wall
 * time). A person types far slower; each line costs a model turn, so a script cannot flood the agent.
 */
export const USER_TEXT_BURST = 3;
export const USER_TEXT_INTERVAL_MS = 500;

/** mu-law 8 kHz: a byte a sample. */
const MULAW_BYTES_PER_SECOND = 8000;

/** ws sends a buffer given with this as a text message (a codec's encodeAudioText). */
const AS_TEXT = { binary: false } as const;

/** A message's bytes as ws delivered them (one buffer, or fragments). */
function messageBytes(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}

/** session.ended's reason to a client whose session the calls service ended (terminate) without a reason here. */
export const TERMINATED_REASON = 'session_terminated';

/** end_call_reason when the conversation could not be started (voice lookup, providers, the pipeline). */
export const PIPELINE_FAILED_REASON = 'voice_pipeline_failed';

/** Why the session cut a stream: a bound it broke, or a pipeline that did not start in time. */
type CutReason = MediaStreamEndReason | typeof PIPELINE_FAILED_REASON;

const LIVENESS_REASON: Readonly<Record<LivenessFault, CutReason>> = {
  silent: MediaStreamEndReasons.silent,
  unresponsive: MediaStreamEndReasons.unresponsive,
};

/** What one stream may cost the replica (VoiceConfig's MEDIA_* settings). */
export interface MediaStreamBounds {
  /** MEDIA_AUDIO_BURST_MS: caller audio accepted ahead of the media clock, wall ms. */
  audioBurstMs: number;
  /** MEDIA_PING_INTERVAL_MS. */
  pingIntervalMs: number;
  /** MEDIA_INBOUND_SILENCE_MS. */
  inboundSilenceMs: number;
  /** MEDIA_MAX_BUFFERED_BYTES: outbound bytes held for a carrier that does not read them. */
  maxBufferedBytes: number;
}

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
  /** MEDIA_TIME_SCALE, for the media seconds of a call whose conversation never started, and the audio budget. */
  timeScale: number;
  bounds: MediaStreamBounds;
  log: (level: 'warn' | 'error', message: string) => void;
  now?: () => number;
}

/**
 * One accepted media stream: decodes the carrier's frames into neutral events for the call's conversation,
 * encodes what the conversation sends, and reports the outcome once the conversation settles. A frame the
 * protocol does not allow closes the socket with a reason; nothing a carrier sends can crash the process.
 * Each stream is bounded: caller audio to real time plus a burst, the events held before the conversation
 * starts, and liveness (pings answered, frames arriving, what it is sent read). A stream that breaks a bound is
 * cut and its call hung up with the reason (MediaStreamEndReasons); unknown event types are only counted.
 */
export class MediaSession {
  readonly callId: string;
  readonly partnerId: string;
  /** Settles once the outcome has been reported (or failed to be) and the socket is closed. */
  readonly finished: Promise<void>;
  private conversation: LiveConversation | null = null;
  private pending: MediaStreamEvent[] = [];
  private pendingBytes = 0;
  /** Set when the session cut the stream: the call ends with it and is hung up. */
  private cutReason: CutReason | null = null;
  private readonly audioBudget: MediaClockBudget;
  private readonly messageBudget: MediaClockBudget;
  private readonly liveness: StreamLiveness;
  private droppingAudio = false;
  private ignoredUnknown = false;
  private streamId: string | null = null;
  private socketClosed = false;
  /** The session closed the socket itself (not the far end). */
  private closedHere = false;
  /** While the client is muted (codec.muted): the silence fed in its place on the media clock. */
  private muteFeed: { timer: NodeJS.Timeout; since: number; fed: number } | null = null;
  private conversationDone = false;
  private endRequested: string | null = null;
  /** The call has ended (terminate()): the conversation stops without a farewell or a hang-up. */
  private terminated = false;
  /** A machine answer that came while the conversation was being built; it learns it once built. */
  private pendingAnsweredBy: string | null = null;
  private readonly startedAt: number;
  private readonly now: () => number;
  /** Typed lines the client may send now (USER_TEXT_BURST), refilled since typedAt. */
  private typedAllowance = USER_TEXT_BURST;
  private typedAt: number;

  constructor(private readonly options: MediaSessionOptions) {
    this.callId = options.context.callId;
    this.partnerId = options.context.partnerId;
    this.now = options.now ?? Date.now;
    this.startedAt = this.now();
    this.typedAt = this.startedAt;
    const { bounds, codec } = options;
    // Counted in the protocol's own audio bytes (a browser's PCM16 16 kHz: 32 a ms, mu-law: 8).
    this.audioBudget = new MediaClockBudget({
      burstMs: bounds.audioBurstMs,
      timeScale: options.timeScale,
      bytesPerMediaMs: codec.audioBytesPerMs,
    });
    this.messageBudget = new MediaClockBudget({
      burstMs: bounds.audioBurstMs,
      timeScale: options.timeScale,
      bytesPerMediaMs: codec.audioBytesPerMs * MESSAGE_BYTES_PER_AUDIO_BYTE,
    });
    this.liveness = new StreamLiveness(
      options.socket,
      { pingIntervalMs: bounds.pingIntervalMs, silenceMs: bounds.inboundSilenceMs },
      (fault) =>
        this.cut(
          LIVENESS_REASON[fault],
          fault === 'silent'
            ? `nothing arrived for ${bounds.inboundSilenceMs} ms`
            : `no pong within ${bounds.pingIntervalMs} ms`,
          // A carrier that stopped reading would not read a close frame either.
          fault === 'silent' ? CLOSE_POLICY_VIOLATION : null,
        ),
    );
    options.socket.on('message', (data, isBinary) => this.onMessage(data, isBinary));
    options.socket.on('close', () => this.onSocketClosed());
    options.socket.on('error', (err: Error & { code?: string }) => {
      // ws's own refusals of what the peer sent (a message over MEDIA_MAX_MESSAGE_BYTES, bad UTF-8, a bad
      // opcode): it closes the socket itself (1009, 1007, 1002); the call ends like any protocol fault.
      if (err.code?.startsWith('WS_ERR_') && this.cutReason === null && !this.socketClosed) {
        this.cutReason = MediaStreamEndReasons.protocolError;
        cutStreams.inc({ reason: this.cutReason });
        options.log('warn', `call ${this.callId}: closing the media stream: ${err.message}`);
        return;
      }
      options.log('warn', `media socket of call ${this.callId} failed: ${err.message}`);
    });
    this.finished = this.run().catch((err: Error) => {
      options.log('error', `media session of call ${this.callId} failed: ${err.message}`);
    });
    // A browser sends no start message: its stream is up once admitted, and it is told so.
    if (codec.startsOnAdmission) {
      this.accept({ type: 'started', callId: this.callId, streamId: this.callId, params: {} }, 0);
      this.notify({ type: 'session.started', session_id: this.callId });
    }
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

  /** How the call's warm transfer ended (voice.session.transfer_outcome); true when a transfer waited for it. */
  transferOutcome(outcome: TransferOutcome): boolean {
    if (this.conversationDone || this.terminated || !this.conversation?.transferOutcome) return false;
    const conversation = this.conversation;
    let accepted = false;
    this.guarded(() => (accepted = conversation.transferOutcome!(outcome)));
    return accepted;
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
    this.notify({ type: 'session.ended', reason: TERMINATED_REASON });
    this.close(CLOSE_NORMAL, 'call ended');
    return true;
  }

  private async run(): Promise<void> {
    const transport: MediaTransport = {
      send: (command) => this.send(command),
      notify: (notice) => this.notify(notice),
    };
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
      if (this.socketClosed) this.guarded(() => this.closedUnder(conversation));
      // A pipeline that breaks still ends the call cleanly: hang-up, report, socket closed.
      result = await conversation.done.catch((err: Error) => this.failed('the conversation failed', err));
    }
    this.conversationDone = true;
    if (this.options.codec.encodeNotice) {
      // A client is told why before the close, and need not wait for the report.
      this.notify({ type: 'session.ended', reason: result!.endCallReason ?? 'ended' }, true);
      this.close(CLOSE_NORMAL, 'session ended');
    }
    try {
      await this.options.finish(result!);
    } finally {
      this.close(CLOSE_NORMAL, 'call ended');
    }
  }

  private async failed(what: string, err: Error): Promise<ConversationResult> {
    this.options.log('error', `call ${this.callId}: ${what}: ${err.message}`);
    this.notify({ type: 'session.ended', reason: PIPELINE_FAILED_REASON });
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
    this.liveness.heard();
    const codec = this.options.codec;
    if (isBinary && !codec.decodeBinary) {
      this.protocolError(CLOSE_UNSUPPORTED_DATA, 'binary frames are not part of the media protocol');
      return;
    }
    const bytes = messageBytes(data);
    if (!this.messageBudget.take(bytes.length)) {
      this.cut(
        MediaStreamEndReasons.protocolError,
        'the carrier sends messages far faster than real time',
        CLOSE_POLICY_VIOLATION,
      );
      return;
    }
    if (isBinary && !this.audioBudget.take(bytes.length)) {
      // Checked on the wire's bytes, before any decoding work.
      this.dropAudio(bytes.length / codec.audioBytesPerMs / 1000);
      return;
    }
    const decoded = isBinary
      ? codec.decodeBinary!(bytes)
      : codec.decodeText
        ? codec.decodeText(bytes)
        : codec.decode(bytes.toString('utf8'));
    if (!decoded.ok) {
      const { reason, field, event } = decoded.error;
      if (reason === 'unknown_event') return this.ignoreUnknown(event);
      const answer = codec.answerInvalid?.(decoded.error);
      if (answer) return this.notify(answer);
      const what = field ? `${reason} (${field})` : reason;
      this.protocolError(CLOSE_INVALID_PAYLOAD, `invalid ${this.options.codec.protocol} message: ${what}`);
      return;
    }
    if (codec.muted !== undefined) this.followMute(codec.muted);
    const event = decoded.message;
    if (!event) return;
    if (event.type === 'text' && !this.takeTypedLine()) {
      this.notify({
        type: 'error',
        code: 'rate_limited',
        message: `typed lines are limited to ${USER_TEXT_BURST} at once and ${1000 / USER_TEXT_INTERVAL_MS} a second; this one was not taken`,
      });
      return;
    }
    if (!isBinary && event.type === 'audio' && !this.audioBudget.take(event.payload.length)) {
      this.dropAudio(event.payload.length / MULAW_BYTES_PER_SECOND);
      return;
    }
    this.accept(event, bytes.length);
  }

  /** A decoded event goes to the conversation, or waits (bounded) for it to be built. */
  private accept(event: MediaStreamEvent, bytes: number): void {
    if (event.type === 'started') this.streamId = event.streamId;
    if (this.conversation) {
      // As guarded() runs it, without a closure made for each of a call's fifty frames a second.
      try {
        this.conversation.onEvent(event);
      } catch (err) {
        this.conversationThrew(err);
      }
    } else if (this.pending.length < MAX_PENDING_EVENTS && this.pendingBytes + bytes <= MAX_PENDING_BYTES) {
      this.pending.push(event);
      this.pendingBytes += bytes;
    } else {
      this.cut(PIPELINE_FAILED_REASON, 'the conversation did not start in time', CLOSE_INTERNAL_ERROR);
    }
  }

  /**
   * A muted client's audio is dropped by its codec; in its place the conversation hears silence, a frame every
   * 20 ms of media time, whether the client sends frames or not, so the line keeps its clock (recording, idle,
   * turn-taking). Being fed counts as hearing from the client: pings still find one that is gone.
   */
  private followMute(muted: boolean): void {
    if (muted === (this.muteFeed !== null)) return;
    if (!muted) return this.stopMuteFeed();
    const timer = setInterval(() => this.feedSilence(), FRAME_MS / this.options.timeScale);
    timer.unref();
    this.muteFeed = { timer, since: this.now(), fed: 0 };
  }

  private feedSilence(): void {
    const feed = this.muteFeed;
    if (!feed) return;
    if (this.socketClosed || this.conversationDone) return this.stopMuteFeed();
    this.liveness.heard();
    const due = Math.floor(((this.now() - feed.since) * this.options.timeScale) / FRAME_MS);
    // After a stall, at most a second at once: what a carrier would deliver late.
    feed.fed = Math.max(feed.fed, due - MUTE_CATCH_UP_FRAMES);
    for (; feed.fed < due && this.muteFeed === feed; feed.fed++) {
      this.accept(
        { type: 'audio', payload: Buffer.alloc(MULAW_FRAME_BYTES, MULAW_SILENCE) },
        MULAW_FRAME_BYTES,
      );
    }
  }

  private stopMuteFeed(): void {
    if (this.muteFeed) clearInterval(this.muteFeed.timer);
    this.muteFeed = null;
  }

  /** Whether a typed line may be taken now (USER_TEXT_BURST, USER_TEXT_INTERVAL_MS); takes its place if so. */
  private takeTypedLine(): boolean {
    const now = this.now();
    this.typedAllowance = Math.min(
      USER_TEXT_BURST,
      this.typedAllowance + Math.max(0, now - this.typedAt) / USER_TEXT_INTERVAL_MS,
    );
    this.typedAt = now;
    if (this.typedAllowance < 1) return false;
    this.typedAllowance -= 1;
    return true;
  }

  /** Caller audio beyond real time plus the burst: dropped unheard, counted, logged once per stream. */
  private dropAudio(seconds: number): void {
    inboundAudioDropped.inc(seconds);
    if (this.droppingAudio) return;
    this.droppingAudio = true;
    this.options.log(
      'warn',
      `call ${this.callId}: the carrier sends audio faster than real time; dropping what exceeds the burst allowance`,
    );
  }

  /** A newer protocol's event, or one this platform has no use for: counted, logged once per stream. */
  private ignoreUnknown(event: string | undefined): void {
    ignoredStreamMessages.inc({ protocol: this.options.codec.protocol });
    if (this.ignoredUnknown) return;
    this.ignoredUnknown = true;
    this.options.log(
      'warn',
      `call ${this.callId}: ignoring ${this.options.codec.protocol} messages of unknown event ${JSON.stringify(event?.slice(0, 64))}`,
    );
  }

  private send(command: MediaStreamCommand): void {
    // Before `started` the carrier has named no stream to play into; after close there is no one to hear.
    if (this.streamId === null || this.socketClosed) return;
    const socket = this.options.socket;
    if (socket.readyState !== socket.OPEN) return;
    // A carrier that stopped reading would have the replica hold everything sent to it.
    if (socket.bufferedAmount > this.options.bounds.maxBufferedBytes) {
      this.cut(
        MediaStreamEndReasons.unresponsive,
        `the carrier is not reading: ${socket.bufferedAmount} bytes waiting to be sent`,
        null,
      );
      return;
    }
    const codec = this.options.codec;
    if (command.type === 'sendAudio' && codec.encodeAudioText) {
      socket.send(codec.encodeAudioText(command.payload, this.streamId), AS_TEXT);
    } else {
      socket.send(codec.encode(command, this.streamId));
    }
  }

  /**
   * A notice for a client that shows the session (a browser codec's JSON); carriers' codecs have none. After the
   * conversation is over only the session's own `session.ended` goes out (`final`).
   */
  private notify(notice: MediaSessionNotice, final = false): void {
    const encode = this.options.codec.encodeNotice;
    if (!encode || this.socketClosed || (this.conversationDone && !final)) return;
    const socket = this.options.socket;
    if (socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount > this.options.bounds.maxBufferedBytes) {
      this.cut(
        MediaStreamEndReasons.unresponsive,
        `the client is not reading: ${socket.bufferedAmount} bytes waiting to be sent`,
        null,
      );
      return;
    }
    socket.send(encode.call(this.options.codec, notice));
  }

  private protocolError(code: number, reason: string): void {
    this.cut(MediaStreamEndReasons.protocolError, reason, code);
  }

  /**
   * Closes the stream for `reason` (with a close frame `code`, or dropped outright when null) and has the
   * conversation end the call with that reason, hung up through the carrier.
   */
  private cut(reason: CutReason, message: string, code: number | null): void {
    if (this.socketClosed || this.conversationDone) return;
    this.options.log('warn', `call ${this.callId}: closing the media stream: ${message}`);
    cutStreams.inc({ reason });
    this.cutReason = reason;
    if (code === null) {
      this.options.socket.terminate();
      this.onSocketClosed();
    } else {
      this.close(code, message);
    }
  }

  private close(code: number, reason: string): void {
    const socket = this.options.socket;
    if (socket.readyState === socket.CLOSED || socket.readyState === socket.CLOSING) return;
    // A close reason may hold at most 123 bytes.
    this.closedHere = true;
    socket.close(code, Buffer.from(reason).subarray(0, 123).toString());
    this.onSocketClosed();
  }

  private onSocketClosed(): void {
    if (this.socketClosed) return;
    this.socketClosed = true;
    this.liveness.stop();
    this.stopMuteFeed();
    const conversation = this.conversation;
    if (!this.conversationDone && conversation) this.guarded(() => this.closedUnder(conversation));
  }

  /**
   * The socket closed under a live conversation. A far end that closed it without a stop message and whose
   * protocol names a reason for that (a browser: caller_disconnected) stops the stream with that reason, so the
   * session is reported ended with it; otherwise the conversation learns of the close (a cut hangs it up).
   */
  private closedUnder(conversation: LiveConversation): void {
    const peerReason = this.options.codec.peerCloseReason;
    if (peerReason && this.cutReason === null && !this.closedHere) {
      conversation.onEvent({ type: 'stopped', reason: peerReason });
    }
    conversation.onClosed(this.cutReason ?? undefined);
  }

  /**
   * Runs a call into the conversation from a socket callback, where a throw would take the process down:
   * a pipeline that throws is asked to end (it settles `done`, and the call is reported) and the stream closes.
   */
  private guarded(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.conversationThrew(err);
    }
  }

  /** What guarded() does when the conversation throws. */
  private conversationThrew(err: unknown): void {
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
