/**
 * A URL as logs and refusals may show it: its password masked. Anything that does not parse as a URL is
 * returned as given, since there is no password to find in it.
 */
export function withoutPassword(raw: string): string {
  try {
    const url = new URL(raw);
    if (!url.password) return raw;
    url.password = '***';
    return url.toString();
  } catch {
    return raw;
  }
}
