/**
 * Paise a partner needs to start a call, or a campaign to start dialling: one 30-second call at the
 * per-minute price. The calls service and the campaigns service check the same floor.
 */
export function minimumStartBalancePaise(pricePerMinutePaise: number): number {
  return Math.ceil(pricePerMinutePaise / 2);
}
