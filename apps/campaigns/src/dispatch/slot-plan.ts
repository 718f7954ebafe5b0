/** What the dispatcher knows when it claims contacts for one campaign. */
export interface SlotState {
  concurrencyLimit: number;
  retryConcurrency: number;
  /** The partner's account concurrency limit. */
  accountLimit: number;
  /** Attempts of this campaign in flight (claimed, dialling or on a call not yet released). */
  campaignInFlight: number;
  /** Of those, retries. */
  retryInFlight: number;
  /** Attempts in flight across all of the partner's campaigns. */
  partnerInFlight: number;
}

/** Free slots now: never above min(concurrency_limit, account limit) for the campaign, nor the account limit overall. */
export function freeSlots(s: SlotState): number {
  const limit = Math.min(s.concurrencyLimit, s.accountLimit);
  return Math.max(0, Math.min(limit - s.campaignInFlight, s.accountLimit - s.partnerInFlight));
}

/**
 * Slots first attempts may take once due retries were claimed: retry_concurrency slots stay free for
 * retries while any retry is waiting, so fresh contacts cannot starve them. With no retry waiting every
 * slot is used, so a campaign without failures dials at its full concurrency.
 */
export function freshSlots(s: SlotState, freeAfterRetries: number, retriesWaiting: boolean): number {
  if (!retriesWaiting) return freeAfterRetries;
  const limit = Math.min(s.concurrencyLimit, s.accountLimit);
  const reserved = Math.max(0, Math.min(s.retryConcurrency, limit) - s.retryInFlight);
  return Math.max(0, freeAfterRetries - reserved);
}
