/** What a call's minutes cost: the account's price, or a test run's (the test price). */
export const CALL_BILLING_RATES = ['standard', 'test'] as const;
export type CallBillingRate = (typeof CALL_BILLING_RATES)[number];

/**
 * The charge of a call in paise: answered time billed per second at the per-minute price, rounded up to
 * the next paisa. Calls that were never answered cost nothing. The calls service fixes a call's charge with
 * it; the gateway prices a reseller's share of its client's call with the same rule.
 */
export function creditsPaise(billSeconds: number, pricePerMinutePaise: number): number {
  if (billSeconds <= 0) return 0;
  return Math.ceil((billSeconds * pricePerMinutePaise) / 60);
}

/**
 * What a minute of an account's calls costs it: its rate card when its reseller set one (a client account),
 * else the platform's price.
 */
export function accountPricePerMinutePaise(
  partner: { pricePerMinutePaise?: number | null },
  platformPaise: number,
): number {
  return partner.pricePerMinutePaise ?? platformPaise;
}
