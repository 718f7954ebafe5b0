// Stream URLs: the answer markup points carriers at `<MEDIA_PUBLIC_URL>/media/<carrier>/<callId>?token=...`,
// and the media plane reads the same three parts back from the upgrade request.
import type { MediaStreamProtocol } from './media-stream-codec';

/** Carriers whose calls open media streams; the sandbox speaks carrier_b's protocol. */
export const MEDIA_STREAM_CARRIERS = ['carrier_a', 'carrier_b', 'sandbox'] as const;
export type MediaStreamCarrier = (typeof MEDIA_STREAM_CARRIERS)[number];

const PROTOCOL_OF: Readonly<Record<MediaStreamCarrier, MediaStreamProtocol>> = {
  carrier_a: 'carrier_a',
  carrier_b: 'carrier_b',
  sandbox: 'carrier_b',
};

/** A browser's stream (`/browser/<sessionId>`): the session id is the call id its token binds. */
export const BROWSER_STREAM = 'browser' as const;
/** Who opens a media stream: a carrier (`/media/<carrier>/<callId>`) or a browser (`/browser/<sessionId>`). */
export type MediaStreamSource = MediaStreamCarrier | typeof BROWSER_STREAM;

export function mediaStreamProtocolOf(source: MediaStreamSource): MediaStreamProtocol {
  return source === BROWSER_STREAM ? BROWSER_STREAM : PROTOCOL_OF[source];
}

export function isMediaStreamCarrier(value: string): value is MediaStreamCarrier {
  return (MEDIA_STREAM_CARRIERS as readonly string[]).includes(value);
}

const WEBSOCKET_SCHEME: Readonly<Record<string, string>> = {
  'http:': 'ws:',
  'https:': 'wss:',
  'ws:': 'ws:',
  'wss:': 'wss:',
};

/**
 * The WebSocket base of the media plane from MEDIA_PUBLIC_URL: http becomes ws, https becomes wss, a path
 * prefix is kept without its trailing slash. Throws for anything that is not a bare http(s)/ws(s) base URL,
 * since that is a configuration error.
 */
export function mediaWebSocketBase(publicUrl: string): URL {
  const url = new URL(publicUrl);
  const scheme = WEBSOCKET_SCHEME[url.protocol];
  if (!scheme) throw new RangeError(`MEDIA_PUBLIC_URL must be http(s) or ws(s), not ${url.protocol}`);
  if (url.search || url.hash || url.username || url.password) {
    throw new RangeError('MEDIA_PUBLIC_URL must not carry a query, fragment or credentials');
  }
  // The URL setter refuses switching between special and non-special schemes, so the base is rebuilt.
  return new URL(`${scheme}//${url.host}${url.pathname.replace(/\/+$/, '')}`);
}

export interface MediaStreamUrlInput {
  publicUrl: string;
  carrier: MediaStreamCarrier;
  callId: string;
  token: string;
}

/** `wss://host[/prefix]/media/<carrier>/<callId>?token=<token>`. */
export function buildMediaStreamUrl(input: MediaStreamUrlInput): string {
  if (!input.callId) throw new RangeError('callId is required');
  const base = mediaWebSocketBase(input.publicUrl);
  const prefix = base.pathname === '/' ? '' : base.pathname;
  const path = `${prefix}/media/${input.carrier}/${encodeURIComponent(input.callId)}`;
  return `${base.protocol}//${base.host}${path}?token=${encodeURIComponent(input.token)}`;
}

/** `wss://host[/prefix]/browser/<sessionId>?token=<token>`: the URL a browser session's client connects to. */
export function buildBrowserStreamUrl(input: {
  publicUrl: string;
  sessionId: string;
  token: string;
}): string {
  if (!input.sessionId) throw new RangeError('sessionId is required');
  const base = mediaWebSocketBase(input.publicUrl);
  const prefix = base.pathname === '/' ? '' : base.pathname;
  const path = `${prefix}/${BROWSER_STREAM}/${encodeURIComponent(input.sessionId)}`;
  return `${base.protocol}//${base.host}${path}?token=${encodeURIComponent(input.token)}`;
}

export type MediaStreamRequest = {
  ok: true;
  carrier: MediaStreamSource;
  callId: string;
  token: string;
  /** The URL the carrier was given (public scheme, host and prefix), which carriers sign the upgrade over. */
  publicUrl: string;
};

export type MediaStreamRequestRejection = 'not_a_stream_path' | 'unknown_carrier' | 'missing_token';

/**
 * Reads an upgrade request's target (path and query, as the HTTP server sees it): `/media/<carrier>/<callId>`
 * or `/browser/<sessionId>` (carrier `browser`). The path prefix of MEDIA_PUBLIC_URL may be present or already
 * stripped by a proxy.
 */
export function parseMediaStreamRequest(
  requestTarget: string,
  publicUrl: string,
): MediaStreamRequest | { ok: false; reason: MediaStreamRequestRejection } {
  const base = mediaWebSocketBase(publicUrl);
  const prefix = base.pathname === '/' ? '' : base.pathname;
  let target: URL;
  try {
    target = new URL(requestTarget, 'ws://request.invalid');
  } catch {
    return { ok: false, reason: 'not_a_stream_path' };
  }
  const path =
    prefix && target.pathname.startsWith(`${prefix}/`)
      ? target.pathname.slice(prefix.length)
      : target.pathname;
  const browser = /^\/browser\/([^/]+)$/.exec(path);
  const match = browser ? [path, BROWSER_STREAM, browser[1]] : /^\/media\/([^/]+)\/([^/]+)$/.exec(path);
  if (!match) return { ok: false, reason: 'not_a_stream_path' };
  const [, named, encodedCallId] = match;
  // `browser` is no carrier: /media/browser/<id> is refused like any unknown one.
  if (!browser && !isMediaStreamCarrier(named)) return { ok: false, reason: 'unknown_carrier' };
  const carrier = named as MediaStreamSource;
  let callId: string;
  try {
    callId = decodeURIComponent(encodedCallId);
  } catch {
    return { ok: false, reason: 'not_a_stream_path' };
  }
  const token = target.searchParams.get('token');
  if (!token) return { ok: false, reason: 'missing_token' };
  return {
    ok: true,
    carrier,
    callId,
    token,
    publicUrl: `${base.protocol}//${base.host}${prefix}${path}${target.search}`,
  };
}
