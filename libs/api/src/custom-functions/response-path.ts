/**
 * The JSON-path subset of `response_variables`: `$` (the whole answer) followed by any number of `.key`
 * (a key of letters, digits, `_` and `-`, not starting with a digit), `["key"]` (any key, as a JSON string)
 * and `[index]` (an array position from 0). No wildcards, filters, slices or recursive descent: one path
 * names at most one value.
 */
export const RESPONSE_PATH_MAX_CHARS = 256;
export const RESPONSE_PATH_MAX_SEGMENTS = 32;

export type ResponsePathSegment = string | number;

const DOT_KEY = /^\.([A-Za-z_$][A-Za-z0-9_$-]*)/;
const INDEX = /^\[(0|[1-9][0-9]{0,8})\]/;
// A JSON string (JSON.parse below refuses control characters and bad escapes).
const QUOTED_KEY = /^\[("(?:[^"\\]|\\.)*")\]/;

/** The segments of a path, or null when it is not in the subset. */
export function parseResponsePath(path: string): ResponsePathSegment[] | null {
  if (typeof path !== 'string' || path.length > RESPONSE_PATH_MAX_CHARS || !path.startsWith('$')) return null;
  const segments: ResponsePathSegment[] = [];
  let rest = path.slice(1);
  while (rest.length > 0) {
    if (segments.length >= RESPONSE_PATH_MAX_SEGMENTS) return null;
    let m = DOT_KEY.exec(rest);
    if (m) {
      segments.push(m[1]);
    } else if ((m = INDEX.exec(rest))) {
      segments.push(Number(m[1]));
    } else if ((m = QUOTED_KEY.exec(rest))) {
      try {
        segments.push(JSON.parse(m[1]) as string);
      } catch {
        return null;
      }
    } else {
      return null;
    }
    rest = rest.slice(m[0].length);
  }
  return segments;
}

/** The value a parsed path names in a parsed JSON answer, or undefined when it names nothing. */
export function readResponsePath(answer: unknown, segments: ResponsePathSegment[]): unknown {
  let current = answer;
  for (const segment of segments) {
    if (typeof segment === 'number') {
      if (!Array.isArray(current) || segment >= current.length) return undefined;
      current = current[segment];
    } else {
      // Own keys of plain objects only: `constructor` or `__proto__` name nothing on an answer.
      if (current === null || typeof current !== 'object' || Array.isArray(current)) return undefined;
      if (!Object.prototype.hasOwnProperty.call(current, segment)) return undefined;
      current = (current as Record<string, unknown>)[segment];
    }
  }
  return current;
}
