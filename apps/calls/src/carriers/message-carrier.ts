import { CarrierCallbackReply } from '@vap/messages';
import { CallbackRequest } from './carrier-adapter';
import { CarrierResponse } from './carrier-http';

/** An SMS as a carrier is asked to send it. */
export interface OutboundSms {
  from: string;
  to: string;
  body: string;
  /** Where the carrier reports the message's delivery status. */
  statusCallbackUrl: string;
}

/** A delivery status callback, in the platform's statuses (null: nothing the record shows, e.g. sending). */
export interface SmsStatusReport {
  carrierMessageId: string | null;
  status: 'sent' | 'delivered' | 'undelivered' | 'failed' | null;
  errorCode: string | null;
}

/** An SMS a carrier delivered to one of the connection's numbers. */
export interface InboundSms {
  carrierMessageId: string;
  from: string;
  to: string;
  body: string;
}

/**
 * The carrier refused the message (a 4xx, or a success without the message's id): nothing was sent.
 * `code` is the carrier's error code when it gave one.
 */
export class SmsRefused extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The carrier answered with a server error: it may or may not have taken the message. */
export class SmsOutcomeUnknown extends Error {}

/** A carrier's message API, beside its call API (same account, same signature on callbacks). */
export interface MessageCarrier {
  /** Sends; answers the carrier's message id. Throws SmsRefused, SmsOutcomeUnknown or CarrierUnanswered. */
  send(connectionId: string, sms: OutboundSms): Promise<string>;
  /** Verifies (403 when unsigned or wrongly signed) and reads a delivery status callback. */
  parseStatus(request: CallbackRequest, connectionId: string): Promise<SmsStatusReport>;
  /** Verifies (403) and reads an inbound-SMS webhook. */
  parseInbound(request: CallbackRequest, connectionId: string): Promise<InboundSms>;
  /** What the carrier is answered once an inbound SMS is recorded: no reply message. */
  readonly inboundReply: CarrierCallbackReply;
}

/** The error text of a carrier's answer, bounded, for the message's error_message. */
export function refusalText(provider: string, res: CarrierResponse): string {
  const body = res.body as Record<string, unknown> | string | null;
  const detail =
    body && typeof body === 'object' ? String(body.message ?? body.error ?? '') : String(body ?? '');
  return `${provider} refused the message: HTTP ${res.status}${detail ? ` (${detail.slice(0, 200)})` : ''}`;
}

/** An empty answer markup: the platform sends no reply to an inbound SMS. */
export const EMPTY_MESSAGE_REPLY: CarrierCallbackReply = {
  status: 200,
  contentType: 'application/xml',
  body: '<?xml version="1.0" encoding="UTF-8"?><Response></Response>',
};
