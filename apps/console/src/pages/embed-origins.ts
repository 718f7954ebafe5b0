// The origins a voice session may be opened from, as the embed page reads them from what the partner types.

/** At most this many origins per session (the API's limit). */
export const MAX_ORIGINS = 20;

/** An origin as a browser sends it (scheme://host[:port]); https, or http on the developer's own machine. */
export function originProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${value} is not an address: write it as https://www.example.com`;
  }
  if (url.origin !== value)
    return `${value} must be only scheme://host[:port], without a path or a trailing slash (${url.origin})`;
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)) return null;
  return `${value} must use https (http only for localhost or 127.0.0.1)`;
}

/** The origins typed (separated by spaces, commas or lines) and what is wrong with them, in the order typed. */
export function readOrigins(text: string): { origins: string[]; problems: string[] } {
  const origins = text
    .split(/[\s,]+/)
    .map((o) => o.trim())
    .filter(Boolean);
  const problems = origins.map(originProblem).filter((p): p is string => p !== null);
  if (origins.length > MAX_ORIGINS) problems.push(`At most ${MAX_ORIGINS} origins.`);
  return { origins, problems };
}
