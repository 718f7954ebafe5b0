import type { RequestOptions } from '@vap/messaging';

/**
 * How long the voice replica holding a call's media session has to answer a command addressed to it. A
 * replica answers at once; when none holds the session, NATS says so (no responders) sooner.
 */
export const LIVE_SESSION_ASK_TIMEOUT_MS = 1500;

/**
 * Request options of an addressed command (AddressedSubjects.voice) to the voice replica holding the call's
 * live media session: addressed by call id, with a short timeout.
 */
export function liveSessionAsk(callId: string): RequestOptions {
  return { address: callId, timeoutMs: LIVE_SESSION_ASK_TIMEOUT_MS };
}
