/**
 * end_call_reason of a call whose media stream the voice service cut because the stream broke one of its
 * bounds; the call is hung up through the carrier as well, as the carrier may not have noticed.
 */
export const MediaStreamEndReasons = {
  /** Nothing arrived on the stream for MEDIA_INBOUND_SILENCE_MS (carriers stream silence too). */
  silent: 'media_stream_silent',
  /** The carrier stopped answering pings, or stopped reading the audio sent to it. */
  unresponsive: 'media_stream_unresponsive',
  /** A frame the protocol does not allow: too large, binary, or a known event with malformed fields. */
  protocolError: 'media_stream_protocol_error',
} as const;

export type MediaStreamEndReason = (typeof MediaStreamEndReasons)[keyof typeof MediaStreamEndReasons];
