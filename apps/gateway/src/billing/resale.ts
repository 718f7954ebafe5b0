import { CallBillingRate, creditsPaise } from '@vap/messages';

/** What of a reseller's client's call the platform charges, and so what of it is the reseller's. */
export interface ResaleSplit {
  /** The platform's charge for the call: what the reseller owes for it. */
  platformPaise: number;
  /**
   * The reseller's margin: what was collected from the client less the platform's charge. Negative when the
   * client's balance fell short (or the platform's price rose above the rate card): the reseller pays the
   * platform's cost of its client's call either way.
   */
  marginPaise: number;
}

/**
 * The split of a reseller's client's call. The calls service priced the call at the client's own price (its
 * rate card, else the platform's) and `collectedPaise` of that was debited from the client. The platform
 * charges the billed seconds at its price a minute; a test run's session was priced at the test price
 * whoever runs it, which passes through to the reseller unchanged (no margin on a test).
 */
export function resaleSplit(
  call: { billedSeconds: number; billingRate: CallBillingRate; pricePaise: number },
  collectedPaise: number,
  platformPricePerMinutePaise: number,
): ResaleSplit {
  const platformPaise =
    call.billingRate === 'test'
      ? call.pricePaise
      : creditsPaise(call.billedSeconds, platformPricePerMinutePaise);
  return { platformPaise, marginPaise: collectedPaise - platformPaise };
}
