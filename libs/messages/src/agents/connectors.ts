// The hosted connect pages' commands: the gateway serves the pages (no API key: the link's token is the
// credential), the agents service owns connectors and connections (their sealed tokens never leave it) and
// makes every request to the connector's OAuth 2.0 server.

/** A connect link's life (the link is spent when a connection completes through it). */
export const CONNECT_LINK_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** How long one authorization attempt (its state and PKCE verifier) may take to come back to the callback. */
export const CONNECT_STATE_TTL_MS = 15 * 60 * 1000;
/** Longest API key a customer may paste. */
export const CONNECTION_API_KEY_MAX_CHARS = 4096;

/** agents.connect.open: a customer followed a connect link. */
export interface ConnectOpenRequest {
  token: string;
  /** The gateway's callback route (the redirect_uri of RFC 6749 §4.1.1), on its public base URL. */
  redirectUri: string;
  /**
   * The random value of the cookie the page sets on this browser (RFC 6749 §10.12): its hash is kept with the
   * attempt's state, and the callback completes only in the browser that sends it back.
   */
  browserBinding: string;
}

/** What the link's page does: send the browser to the authorization server, or ask for the API key. */
export type ConnectOpenReply =
  { kind: 'redirect'; url: string; connectorName: string } | { kind: 'api_key_form'; connectorName: string };

/** agents.connect.submit_key: the API key form was posted with the link's token. */
export interface ConnectSubmitKeyRequest {
  token: string;
  apiKey: string;
}

/** agents.connect.callback: the authorization server sent the browser back (RFC 6749 §4.1.2). */
export interface ConnectCallbackRequest {
  state: string;
  code: string | null;
  /** The authorization server's `error` (access_denied, ...) when the customer did not grant access. */
  error: string | null;
  redirectUri: string;
  /** The binding cookie's value this browser sent back (the gateway refuses a callback without one). */
  browserBinding: string;
}

/** A connection completed: what the success page names. */
export interface ConnectFinishedReply {
  connectorName: string;
}
