import { AppError } from '@vap/messages';
import { CarrierBCredentials } from '../../telephony/connections/credentials-store.service';
import { CallbackRequest } from '../carrier-adapter';
import { FormCallbackCarrier } from '../form-callback-carrier';
import {
  EMPTY_MESSAGE_REPLY,
  InboundSms,
  MessageCarrier,
  OutboundSms,
  refusalText,
  SmsOutcomeUnknown,
  SmsRefused,
  SmsStatusReport,
} from '../message-carrier';
import { firstValues } from '../signing/form-params';

/** carrier_b's MessageStatus in the platform's words; queued, accepted, sending say nothing new. */
export function carrierBMessageStatus(status: string | undefined): SmsStatusReport['status'] {
  switch (status) {
    case 'sent':
      return 'sent';
    case 'delivered':
    case 'read':
      return 'delivered';
    case 'undelivered':
      return 'undelivered';
    case 'failed':
    case 'canceled':
      return 'failed';
    default:
      return null;
  }
}

/**
 * carrier_b's message API (Twilio's Programmable Messaging, API version 2010-04-01):
 * `POST .../Messages.json` form-encoded To, From, Body, StatusCallback answers the message's `sid`; status
 * callbacks are form POSTs with MessageSid, MessageStatus and ErrorCode, signed with X-Twilio-Signature like
 * the call callbacks; an inbound SMS is a form POST with MessageSid, From, To and Body, answered with TwiML.
 */
export class CarrierBMessages implements MessageCarrier {
  readonly inboundReply = EMPTY_MESSAGE_REPLY;

  constructor(private readonly carrier: FormCallbackCarrier<CarrierBCredentials>) {}

  async send(connectionId: string, sms: OutboundSms): Promise<string> {
    const res = await this.carrier.accountRequest(connectionId, {
      method: 'POST',
      path: '/Messages.json',
      form: new URLSearchParams({
        To: sms.to,
        From: sms.from,
        Body: sms.body,
        StatusCallback: sms.statusCallbackUrl,
      }),
    });
    const body = res.body as Record<string, unknown> | null;
    if (res.status >= 500) throw new SmsOutcomeUnknown(refusalText(this.carrier.provider, res));
    const sid = body && typeof body.sid === 'string' ? body.sid : '';
    if (res.status >= 200 && res.status <= 299 && sid) return sid;
    const code =
      body && (typeof body.code === 'number' || typeof body.code === 'string') ? String(body.code) : '';
    throw new SmsRefused(code || 'carrier_refused', refusalText(this.carrier.provider, res));
  }

  async parseStatus(request: CallbackRequest, connectionId: string): Promise<SmsStatusReport> {
    const f = firstValues(await this.carrier.verifiedCallback(request, connectionId));
    return {
      carrierMessageId: f.MessageSid || f.SmsSid || null,
      status: carrierBMessageStatus(f.MessageStatus ?? f.SmsStatus),
      errorCode: f.ErrorCode ? f.ErrorCode.slice(0, 40) : null,
    };
  }

  async parseInbound(request: CallbackRequest, connectionId: string): Promise<InboundSms> {
    const f = firstValues(await this.carrier.verifiedCallback(request, connectionId));
    const carrierMessageId = f.MessageSid || f.SmsSid;
    if (!carrierMessageId || !f.From || !f.To || f.Body === undefined) {
      throw AppError.validation([
        { field: 'MessageSid', message: 'MessageSid, From, To and Body are required' },
      ]);
    }
    return { carrierMessageId, from: f.From, to: f.To, body: f.Body };
  }
}
