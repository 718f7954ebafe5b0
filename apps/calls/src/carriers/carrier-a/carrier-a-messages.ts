import { AppError } from '@vap/messages';
import { CarrierACredentials } from '../../telephony/connections/credentials-store.service';
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
import { e164Of } from './carrier-a-fields';

/** carrier_a's message Status in the platform's words; queued says nothing new. */
export function carrierAMessageStatus(status: string | undefined): SmsStatusReport['status'] {
  switch (status) {
    case 'sent':
      return 'sent';
    case 'delivered':
    case 'read':
      return 'delivered';
    case 'undelivered':
      return 'undelivered';
    case 'failed':
    case 'rejected':
      return 'failed';
    default:
      return null;
  }
}

/**
 * carrier_a's message API (Plivo's Message API, v1): `POST /v1/Account/{auth_id}/Message/` with JSON src,
 * dst, text, url, method answers `message_uuid` (a list: one id per message created); status callbacks to
 * `url` are form POSTs with MessageUUID, Status and ErrorCode, signed with signature V3 like the call
 * callbacks; an inbound SMS is a form POST with MessageUUID, From, To and Text.
 */
export class CarrierAMessages implements MessageCarrier {
  readonly inboundReply = EMPTY_MESSAGE_REPLY;

  constructor(private readonly carrier: FormCallbackCarrier<CarrierACredentials>) {}

  async send(connectionId: string, sms: OutboundSms): Promise<string> {
    const res = await this.carrier.accountRequest(connectionId, {
      method: 'POST',
      path: '/Message/',
      json: { src: sms.from, dst: sms.to, text: sms.body, url: sms.statusCallbackUrl, method: 'POST' },
    });
    if (res.status >= 500) throw new SmsOutcomeUnknown(refusalText(this.carrier.provider, res));
    const body = res.body as Record<string, unknown> | null;
    const ids = body && Array.isArray(body.message_uuid) ? body.message_uuid : [];
    const first: unknown = ids[0];
    if (res.status >= 200 && res.status <= 299 && typeof first === 'string' && first) return first;
    throw new SmsRefused('carrier_refused', refusalText(this.carrier.provider, res));
  }

  async parseStatus(request: CallbackRequest, connectionId: string): Promise<SmsStatusReport> {
    const f = firstValues(await this.carrier.verifiedCallback(request, connectionId));
    return {
      carrierMessageId: f.MessageUUID || null,
      status: carrierAMessageStatus(f.Status),
      // carrier_a reports ErrorCode 000 on success.
      errorCode: f.ErrorCode && !/^0+$/.test(f.ErrorCode) ? f.ErrorCode.slice(0, 40) : null,
    };
  }

  async parseInbound(request: CallbackRequest, connectionId: string): Promise<InboundSms> {
    const f = firstValues(await this.carrier.verifiedCallback(request, connectionId));
    if (!f.MessageUUID || !f.From || !f.To || f.Text === undefined) {
      throw AppError.validation([
        { field: 'MessageUUID', message: 'MessageUUID, From, To and Text are required' },
      ]);
    }
    return { carrierMessageId: f.MessageUUID, from: e164Of(f.From), to: e164Of(f.To), body: f.Text };
  }
}
