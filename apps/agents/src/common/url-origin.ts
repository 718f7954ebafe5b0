/** A URL's origin (scheme, host and port): where what is sent to it goes. The URL is one already validated. */
export function originOf(url: string): string {
  return new URL(url).origin;
}
