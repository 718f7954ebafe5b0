/**
 * The charge of a call in paise at a per-minute price: answered time billed per second, rounded up to the
 * next paisa; nothing for a call never answered. The same rule as the calls service's creditsPaise, which
 * fixes the platform's charge.
 */
export function creditsPaise(billSeconds: number, pricePerMinutePaise: number): number {
  if (billSeconds <= 0) return 0;
  return Math.ceil((billSeconds * pricePerMinutePaise) / 60);
}

/** What a reseller's client pays for a call, and what of it is the reseller's. */
export interface ResaleSplit {
  /** The client's charge: its rate card's price for the billed seconds. */
  clientPricePaise: number;
  /** Debited from the client: the price, or what its balance had left. */
  collectedPaise: number;
  /**
   * The reseller's margin: what was collected less the platform's charge. Negative when the client's balance
   * fell short (or the platform's price rose above the rate card): the reseller pays the platform's cost of
   * its client's call either way.
   */
  marginPaise: number;
}

/**
 * The split of a reseller's client's call. `platformPaise` is the charge the calls service fixed at the
 * platform's price (a test run's at its test rate); `ratePaise` the client's rate card a minute.
 */
export function resaleSplit(
  billedSeconds: number,
  platformPaise: number,
  ratePaise: number,
  clientBalancePaise: number,
): ResaleSplit {
  const clientPricePaise = creditsPaise(billedSeconds, ratePaise);
  const collectedPaise = Math.min(clientPricePaise, Math.max(0, clientBalancePaise));
  return { clientPricePaise, collectedPaise, marginPaise: collectedPaise - platformPaise };
}
