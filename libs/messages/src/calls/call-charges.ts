import type { CallModelUsage } from './call-events';
import type { CallBillingRate } from './credits';
/**
 * Charges of ended calls, asked of the calls service by the gateway (partner-scoped commands), so billing
 * never depends on the event stream still holding session.completed.
 */

/** calls.billing.unbilled: the partner's charges not yet acknowledged, oldest call id first. */
export interface UnbilledChargesRequest {
  /** nextCursor of the previous page. */
  cursor?: string | null;
  /** 1..500, default 100. */
  limit?: number;
}

export interface UnbilledCharge {
  callId: string;
  sessionId: string;
  /** Billed seconds and their price, fixed when the call ended. */
  billSeconds: number;
  amountPaise: number;
  /** What the seconds were priced at (session.completed's billing_rate); absent from older calls services. */
  billingRate?: CallBillingRate;
  /** What the charge is for, as session.completed says it (the gateway's ledger keeps it). */
  agentId: string;
  campaignId: string | null;
  projectId: string | null;
  /** The browser session's id (its call id); null for a phone call. */
  browserSessionId: string | null;
  /**
   * Cloud speech providers that served the call on the platform's keys, sorted ([]: offline engines or the
   * partner's own keys only). The ledger keeps them, and usage counts the call's minutes as platform speech.
   */
  platformPaidSpeech: string[];
  /**
   * The call's model use, per model that wrote a line ([]: none), as session.completed's model_usage: the ledger
   * keeps it on the charge. Absent from calls services older than per-agent models.
   */
  modelUsage?: CallModelUsage[];
}

export interface UnbilledChargesPage {
  charges: UnbilledCharge[];
  nextCursor: string | null;
}

/** calls.billing.acknowledge: the gateway has debited these calls (ledger reference `call:<id>`). */
export interface AcknowledgeChargesRequest {
  callIds: string[];
}

export interface AcknowledgeChargesReply {
  acknowledged: number;
}

/** The ledger reference of a call's charge: one per call, unique in the gateway's ledger. */
export const callChargeReference = (callId: string) => `call:${callId}`;
