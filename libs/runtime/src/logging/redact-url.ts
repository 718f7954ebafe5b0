/**
 * Path segments that are secrets themselves: the token after `invitations/` and `password-resets/` (the
 * console's one-time links) and after `uploads/` (signed blob URLs).
 */
const SECRET_SEGMENT = /(\/(?:invitations|password-resets|uploads)\/)[^/?#]+/gi;

/** Query parameters whose value is a credential. */
const SECRET_PARAMS = new Set([
  'token',
  'access_token',
  'api_key',
  'apikey',
  'key',
  'signature',
  'sig',
  'password',
]);

export const REDACTED = '[redacted]';

/**
 * A request URL as it may be logged: the tokens of one-time links and signed URLs in its path, and the
 * values of credential-named query parameters, replaced with `[redacted]`. Anything else stays readable.
 */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?');
  const path = (queryAt === -1 ? url : url.slice(0, queryAt)).replace(SECRET_SEGMENT, `$1${REDACTED}`);
  if (queryAt === -1) return path;
  const query = url
    .slice(queryAt + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // A malformed escape is logged as sent.
      }
      return eq !== -1 && SECRET_PARAMS.has(decoded.trim().toLowerCase()) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${path}?${query}`;
}
