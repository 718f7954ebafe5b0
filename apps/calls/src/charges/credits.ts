/**
 * The charge of a call in paise: answered time billed per second at the per-minute price, rounded up to
 * the next paisa. Calls that were never answered cost nothing.
 */
export function creditsPaise(billSeconds: number, pricePerMinutePaise: number): number {
  if (billSeconds <= 0) return 0;
  return Math.ceil((billSeconds * pricePerMinutePaise) / 60);
}
