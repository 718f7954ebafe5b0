/**
 * The most charges a page of unbilled charges holds, and so the most call ids one acknowledgement names: the
 * gateway acknowledges a page once its debits committed.
 */
export const UNBILLED_PAGE_MAX = 500;
