/**
 * Path segments that are secrets themselves: the token after `invitations/` and `password-resets/` (the
 * console's one-time links), after `uploads/` (signed blob URLs) and after `connect/` (customers' connect links;
 * `connect/oauth/...` is the OAuth callback, whose secrets are in its query).
 */
const SECRET_SEGMENT = /(\/(?:invitations|password-resets|uploads)\/)[^/?#]+/gi;
const CONNECT_LINK = /(\/connect\/)(?!oauth(?:[/?#]|$))[^/?#]+/gi;

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

/**
 * Query parameters that are credentials on one route only (elsewhere the same name may be a plain filter): the
 * OAuth 2.0 callback's authorization code and state (RFC 6749 §4.1.2).
 */
const ROUTE_SECRET_PARAMS: { path: RegExp; params: Set<string> }[] = [
  { path: /\/connect\/oauth\/callback\/?$/i, params: new Set(['code', 'state']) },
];

export const REDACTED = '[redacted]';

/**
 * A request URL as it may be logged: the tokens of one-time links and signed URLs in its path, and the
 * values of credential-named query parameters, replaced with `[redacted]`. Anything else stays readable.
 */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?');
  const rawPath = queryAt === -1 ? url : url.slice(0, queryAt);
  const path = rawPath.replace(SECRET_SEGMENT, `$1${REDACTED}`).replace(CONNECT_LINK, `$1${REDACTED}`);
  if (queryAt === -1) return path;
  const routeParams = ROUTE_SECRET_PARAMS.filter((r) => r.path.test(rawPath)).map((r) => r.params);
  const secret = (name: string) => SECRET_PARAMS.has(name) || routeParams.some((p) => p.has(name));
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
      return eq !== -1 && secret(decoded.trim().toLowerCase()) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${path}?${query}`;
}
