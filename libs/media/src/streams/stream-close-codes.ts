// WebSocket close codes of the media plane's streams that the other side acts on: the voice service closes
// with them and the carrier's side (the sandbox phone, carriers' fallbacks, the tests' fake carriers) reads them.

/**
 * RFC 6455's 1013 "Try Again Later": the voice replica already serves MAX_LIVE_SESSIONS streams. The stream
 * is closed right after its handshake, before any audio and before the call was attached, so its token is
 * still unused and the call can still open its one stream elsewhere (the carrier's fallback applies).
 */
export const STREAM_CLOSE_REPLICA_FULL = 1013;
export const STREAM_CLOSE_REPLICA_FULL_REASON = 'replica full';

/**
 * Why a browser's connection was refused, as its page reads it: the session's recorded reasons
 * (BrowserRefusalReason) and three the page alone learns: `token_invalid` (the token is not one the platform
 * signed for this session: decided before any session is looked up, so it says nothing about the session),
 * `session_not_found` (a token the platform signed names no browser session) and `unavailable` (the voice
 * service is draining or cannot reach the calls service: try again).
 */
export type BrowserRefusalCause =
  | 'token_expired'
  | 'token_used'
  | 'token_invalid'
  | 'origin_not_allowed'
  | 'account_restricted'
  | 'capacity'
  | 'session_ended'
  | 'session_not_found'
  | 'unavailable';

/**
 * A refused browser connection is accepted and closed at once with one of these application codes (RFC 6455's
 * 4000-4999), the cause as the close reason, before any audio and without starting (or billing) a session:
 * browsers hide why a handshake failed, but show a close's code and reason. Modelled on HTTP statuses.
 */
export const BROWSER_REFUSAL_CLOSE: Readonly<Record<BrowserRefusalCause, number>> = {
  token_expired: 4401,
  token_used: 4401,
  token_invalid: 4401,
  origin_not_allowed: 4403,
  account_restricted: 4403,
  session_not_found: 4404,
  session_ended: 4410,
  capacity: 4429,
  unavailable: 4503,
};
