import { InboundRouteDecisionDto } from '@vap/api';
import { CarrierCallbackReply } from '@vap/messages';
import { CallbackRequest, CarrierAdapter, CarrierConnectionRef } from './carrier-adapter';

/** An inbound call as a carrier's webhook announced it, after its signature was verified. */
export interface InboundCallAnnouncement {
  providerCallId: string;
  fromNumber: string;
  toNumber: string;
  direction: string;
}

/** Carriers whose numbers can send inbound calls to the platform (a webhook for a call it did not place). */
export interface InboundCallParser {
  /** Verifies the webhook with the connection's credentials (403 FORBIDDEN when unsigned or wrongly signed). */
  parseInboundCall(
    request: CallbackRequest,
    connection: CarrierConnectionRef,
  ): Promise<InboundCallAnnouncement>;
  /**
   * The carrier's markup that carries out a decision: reject, transfer, or the media stream of the call an
   * answering decision opened (`decision.call_id`).
   */
  inboundReply(decision: InboundRouteDecisionDto): CarrierCallbackReply;
}

export function isInboundCallParser(adapter: CarrierAdapter): adapter is CarrierAdapter & InboundCallParser {
  const a = adapter as Partial<InboundCallParser>;
  return typeof a.parseInboundCall === 'function' && typeof a.inboundReply === 'function';
}
