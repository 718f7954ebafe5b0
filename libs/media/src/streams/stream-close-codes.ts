// WebSocket close codes of the media plane's streams that the other side acts on: the voice service closes
// with them and the carrier's side (the sandbox phone, carriers' fallbacks, the tests' fake carriers) reads them.

/**
 * RFC 6455's 1013 "Try Again Later": the voice replica already serves MAX_LIVE_SESSIONS streams. The stream
 * is closed right after its handshake, before any audio and before the call was attached, so its token is
 * still unused and the call can still open its one stream elsewhere (the carrier's fallback applies).
 */
export const STREAM_CLOSE_REPLICA_FULL = 1013;
export const STREAM_CLOSE_REPLICA_FULL_REASON = 'replica full';
