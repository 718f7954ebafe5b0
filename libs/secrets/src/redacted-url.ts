/**
 * A URL as it may be printed (start-up lines, refusals of bad settings): its password, if any, replaced with
 * `***`. Anything that does not parse as a URL comes back as given.
 */
export function redactedUrl(value: string): string {
  try {
    const url = new URL(value);
    if (!url.password) return value;
    url.password = '***';
    return url.toString();
  } catch {
    return value;
  }
}
