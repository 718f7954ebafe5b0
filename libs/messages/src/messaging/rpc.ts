import { ErrorPayload } from '../errors';

/**
 * The calling partner as the gateway authenticated it: a snapshot taken at request time, so a service
 * can apply the caller's tier, limits and balance without asking the gateway back.
 */
export interface PartnerContext {
  id: string;
  status: 'pending' | 'approved' | 'suspended';
  voiceTier: string;
  concurrencyLimit: number;
  balancePaise: number;
  /**
   * A client account's rate card in paise a minute, set by its reseller (null: the platform's price). The
   * calls service prices the account's calls with it, so a client sees its own price, never its reseller's cost.
   */
  pricePerMinutePaise: number | null;
  /**
   * A client account's reseller (null: none). The live calls of a reseller and all its clients together are
   * bounded by the reseller's concurrency limit; a sender that predates it sends none (the relation is kept).
   */
  resellerId?: string | null;
  /**
   * The partner's version when the snapshot was taken (one more on every change). A service keeping a copy
   * keeps the highest version it saw; a sender that predates versions sends none, which counts as 0.
   */
  version: number;
}

/** What every command carries across NATS. partnerId is null only for operator and system commands. */
export interface RpcRequest<T = unknown> {
  partnerId: string | null;
  /** Present on commands that come from a partner's API request. */
  partner?: PartnerContext;
  requestId: string;
  data: T;
}

export type RpcReply<T = unknown> = { ok: true; data: T } | { ok: false; error: ErrorPayload };

/** Header names used on NATS messages. */
export const MessageHeaders = {
  requestId: 'X-Request-Id',
  traceparent: 'traceparent',
} as const;
