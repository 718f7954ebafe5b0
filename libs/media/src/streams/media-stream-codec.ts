// What a media session reads and writes a stream through, whatever its protocol: the adapters make one per carrier
// protocol (media-stream-adapters.ts), the browser stream its own (browser-stream.ts).
import type { MediaSessionNotice, MediaStreamCommand, MediaStreamEvent } from './media-stream-event';
import type { StreamParseError, StreamParseResult } from './stream-message-fields';

/** The two carrier wire protocols (other carriers, the sandbox, speak one of them); and browsers'. */
export type MediaStreamProtocol = 'carrier_a' | 'carrier_b' | 'browser';
export type CarrierStreamProtocol = Exclude<MediaStreamProtocol, 'browser'>;

/**
 * One stream's messages in and out for one protocol, for a pipeline that never sees carrier messages. Carriers'
 * are text frames only (stateless, shareable); a browser's carries audio in binary frames and keeps resampling
 * state, so each stream gets its own (mediaStreamCodec makes one per call).
 */
export interface MediaStreamCodec {
  readonly protocol: MediaStreamProtocol;
  /** Bytes one ms of caller audio takes on the wire (the audio budget counts them): mu-law's 8, PCM16 16 kHz 32. */
  readonly audioBytesPerMs: number;
  /**
   * The stream has no start message: the session emits `started` itself once the stream is admitted, and tells
   * the client with a `session.started` notice.
   */
  readonly startsOnAdmission: boolean;
  /**
   * The end_call_reason when the far end closes the socket without a stop message (a browser tab closed); none
   * for carriers, whose call status says why.
   */
  readonly peerCloseReason?: string;
  /**
   * The client muted its microphone (a browser's `mute`): its audio is dropped, and the session feeds the
   * conversation silence on the media clock meanwhile, so the line keeps its clock.
   */
  readonly muted?: boolean;
  decode(text: string): StreamParseResult<MediaStreamEvent | null>;
  /**
   * A text message read from its UTF-8 bytes, with the same result as decode() of its text; a codec that has it
   * reads the carriers' media frames without making a string of them.
   */
  decodeText?(bytes: Buffer): StreamParseResult<MediaStreamEvent | null>;
  /** Binary messages; a protocol without it refuses them (the session closes with 1003). */
  decodeBinary?(data: Buffer): StreamParseResult<MediaStreamEvent | null>;
  /** A string goes out as a text message, a Buffer as a binary one. */
  encode(command: MediaStreamCommand, streamId: string): string | Buffer;
  /**
   * A sendAudio command's text message as UTF-8 bytes, the same text encode() gives: sent as a text message, it
   * spares the frame its strings. Codecs whose audio goes out otherwise have none.
   */
  encodeAudioText?(payload: Buffer, streamId: string): Buffer;
  /** A notice for a client that shows the session (a browser); carriers' codecs have none and ignore them. */
  encodeNotice?(notice: MediaSessionNotice): string;
  /**
   * The answer to a malformed message the protocol tolerates (the session sends it and goes on); null, or no
   * method, when the message breaks the stream (closed with 1007).
   */
  answerInvalid?(error: StreamParseError): MediaSessionNotice | null;
}
