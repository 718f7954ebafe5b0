/** A Sarvam API base (https://api.sarvam.ai, or a proxy/fake origin) as its WebSocket origin. */
export function sarvamSocketBase(baseUrl: string): string {
  const url = new URL(baseUrl);
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.protocol === 'http:' ? 'ws:' : 'wss:'}//${url.host}${path}`;
}

/** The REST base without a trailing slash. */
export function sarvamRestBase(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '');
}

/** Sarvam takes its key in this header on REST and WebSocket alike. */
export const SARVAM_KEY_HEADER = 'api-subscription-key';
