/** A path segment that names one thing (a CallSid, a UUID, a number) rather than a collection. */
const ID_SEGMENT = /^(?=.*\d)[^.]{6,}(\.json)?$|^\+\d+$/;

/**
 * The name of a REST operation against the partner's account, for connection health: the method and the
 * path below the account, ids replaced by `{id}` and the query left out, e.g. `POST /Calls/{id}.json`. The
 * account resource itself (`.json`, `/`) is `GET account`.
 */
export function operationOf(method: string, pathBelowAccount: string): string {
  const path = pathBelowAccount.split('?')[0];
  if (path === '' || path === '/' || path === '.json') return `${method} account`;
  const named = path
    .split('/')
    .map((segment) => {
      if (!ID_SEGMENT.test(decodeURIComponentSafe(segment))) return segment;
      return segment.endsWith('.json') ? '{id}.json' : '{id}';
    })
    .join('/');
  return `${method} ${named}`;
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
