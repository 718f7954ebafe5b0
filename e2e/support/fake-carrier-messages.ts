import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CarrierAccount } from './fake-carriers';

/**
 * The carriers' message APIs, as the fake carriers serve them:
 * - carrier_b (Twilio's Programmable Messaging, API version 2010-04-01): `POST /2010-04-01/Accounts/{AccountSid}/Messages.json`,
 *   form-encoded `To`, `From`, `Body` (at most 1600 characters), optional `StatusCallback`; answers 201 with the
 *   Message resource (`sid` SM..., `status` queued, `num_segments`). Status callbacks are form POSTs to
 *   StatusCallback with `MessageSid`, `SmsSid`, `AccountSid`, `From`, `To`, `MessageStatus` (queued, sending, sent,
 *   delivered, undelivered, failed), `ErrorCode` on failures, `ApiVersion`, signed with X-Twilio-Signature. An
 *   inbound SMS is a form POST with `MessageSid`, `AccountSid`, `From`, `To`, `Body`, `NumSegments`, `NumMedia`.
 * - carrier_a (Plivo's Message API, v1): `POST /v1/Account/{auth_id}/Message/`, JSON `src`, `dst`, `text`,
 *   optional `url` and `method`; answers 202 `{ message: 'message(s) queued', message_uuid: [...], api_id }`.
 *   Status callbacks are form POSTs to `url` with `MessageUUID`, `From`, `To`, `Status` (queued, sent, failed,
 *   delivered, undelivered, rejected), `ErrorCode` (000 when none), `TotalAmount`, `Units`, signed with signature
 *   V3. An inbound SMS is a form POST with `MessageUUID`, `From`, `To`, `Text`, `Type` (sms).
 */

export interface SentSms {
  provider: 'carrier_a' | 'carrier_b';
  account: CarrierAccount;
  /** carrier_b's sid, carrier_a's message_uuid. */
  id: string;
  from: string;
  to: string;
  body: string;
  /** carrier_b StatusCallback, carrier_a url (empty when none was given). */
  statusUrl: string;
}

export interface MessageRouteContext {
  authorized(req: IncomingMessage, provider: CarrierAccount['provider'], id: string): CarrierAccount | null;
  send(res: ServerResponse, status: number, body: unknown): void;
  messages: SentSms[];
}

const E164 = /^\+[1-9]\d{6,14}$/;

/** Serves a message request; false when the request is not one (the caller goes on with its routes). */
export function handleMessageRequest(
  ctx: MessageRouteContext,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  body: string,
): boolean {
  let m = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/.exec(url.pathname);
  if (m && req.method === 'POST') {
    const account = ctx.authorized(req, 'carrier_b', decodeURIComponent(m[1]));
    if (!account) return (ctx.send(res, 401, { code: 20003, message: 'Authenticate' }), true);
    if (!(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
      return (ctx.send(res, 415, { message: 'form-encoded only' }), true);
    }
    const form = new URLSearchParams(body);
    const to = form.get('To') ?? '';
    const from = form.get('From') ?? '';
    const text = form.get('Body') ?? '';
    if (!E164.test(to))
      return (ctx.send(res, 400, { code: 21211, message: "Invalid 'To' Phone Number" }), true);
    if (!from)
      return (ctx.send(res, 400, { code: 21603, message: "A 'From' phone number is required" }), true);
    if (!text) return (ctx.send(res, 400, { code: 21602, message: 'Message body is required' }), true);
    if (text.length > 1600)
      return (
        ctx.send(res, 400, { code: 21617, message: 'The message body exceeds the 1600 character limit' }),
        true
      );
    const sid = `SM${randomBytes(16).toString('hex')}`;
    ctx.messages.push({
      provider: 'carrier_b',
      account,
      id: sid,
      from,
      to,
      body: text,
      statusUrl: form.get('StatusCallback') ?? '',
    });
    ctx.send(res, 201, {
      sid,
      account_sid: account.id,
      to,
      from,
      body: text,
      status: 'queued',
      num_segments: String(Math.max(1, Math.ceil(text.length / 153))),
      direction: 'outbound-api',
      api_version: '2010-04-01',
      error_code: null,
      uri: `/2010-04-01/Accounts/${account.id}/Messages/${sid}.json`,
    });
    return true;
  }
  m = /^\/v1\/Account\/([^/]+)\/Message\/$/.exec(url.pathname);
  if (m && req.method === 'POST') {
    const account = ctx.authorized(req, 'carrier_a', decodeURIComponent(m[1]));
    if (!account) return (ctx.send(res, 401, { error: 'authentication failed' }), true);
    if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
      return (ctx.send(res, 415, { error: 'JSON only' }), true);
    }
    const json = JSON.parse(body || '{}') as Record<string, unknown>;
    const { src, dst, text } = json;
    if (
      typeof src !== 'string' ||
      typeof dst !== 'string' ||
      typeof text !== 'string' ||
      !src ||
      !dst ||
      !text
    ) {
      return (ctx.send(res, 400, { api_id: randomUUID(), error: 'src, dst and text are required' }), true);
    }
    const uuid = randomUUID();
    ctx.messages.push({
      provider: 'carrier_a',
      account,
      id: uuid,
      from: src,
      to: dst,
      body: text,
      statusUrl: typeof json.url === 'string' ? json.url : '',
    });
    ctx.send(res, 202, { api_id: randomUUID(), message: 'message(s) queued', message_uuid: [uuid] });
    return true;
  }
  return false;
}

/** A delivery status callback's fields, as the message's carrier words them. */
export function messageStatusFields(
  sms: SentSms,
  status: string,
  errorCode?: string,
): Record<string, string> {
  if (sms.provider === 'carrier_b') {
    const fields: Record<string, string> = {
      MessageSid: sms.id,
      SmsSid: sms.id,
      AccountSid: sms.account.id,
      From: sms.from,
      To: sms.to,
      MessageStatus: status,
      SmsStatus: status,
      ApiVersion: '2010-04-01',
    };
    if (errorCode) fields.ErrorCode = errorCode;
    return fields;
  }
  return {
    MessageUUID: sms.id,
    From: sms.from.replace(/^\+/, ''),
    To: sms.to.replace(/^\+/, ''),
    Status: status,
    ErrorCode: errorCode ?? '000',
    TotalAmount: '0.00350',
    Units: '1',
  };
}

/** An inbound SMS webhook's fields, as the carrier words them. */
export function inboundSmsFields(
  account: CarrierAccount,
  sms: { id?: string; from: string; to: string; body: string },
): Record<string, string> {
  if (account.provider === 'carrier_b') {
    const sid = sms.id ?? `SM${randomBytes(16).toString('hex')}`;
    return {
      MessageSid: sid,
      SmsSid: sid,
      SmsMessageSid: sid,
      AccountSid: account.id,
      From: sms.from,
      To: sms.to,
      Body: sms.body,
      NumSegments: '1',
      NumMedia: '0',
      SmsStatus: 'received',
      ApiVersion: '2010-04-01',
    };
  }
  return {
    MessageUUID: sms.id ?? randomUUID(),
    From: sms.from.replace(/^\+/, ''),
    To: sms.to.replace(/^\+/, ''),
    Text: sms.body,
    Type: 'sms',
    TotalAmount: '0.00000',
    Units: '1',
  };
}
