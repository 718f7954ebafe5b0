import { Injectable } from '@nestjs/common';
import { E164_PATTERN } from '@vap/api';
import { AppError } from '@vap/messages';
import { carrierAStreamMarkup } from '@vap/media';
import { Call, carrierConnectionOf } from '../../calls/entities/call.entity';
import { InboundCallAnnouncement, InboundCallParser } from '../inbound-call-parser';
import { NumberDetacher } from '../../telephony/phone-numbers/number-detachers';
import { CarrierACredentials } from '../../telephony/connections/credentials-store.service';
import {
  CallbackCall,
  CallbackRequest,
  CarrierAdapter,
  CarrierCallState,
  CarrierConnectionRef,
  OutboundCall,
  ParsedCallback,
  TRANSFER_LEG_EVENTS,
  TransferLegCallback,
  TransferLegPlacement,
} from '../carrier-adapter';
import { CarrierCallGone, carrierError } from '../carrier-http';
import { dialReply, MarkupDialect, streamReply, xmlEscape, xmlReply } from '../carrier-xml';
import { FormCallbackCarrier } from '../form-callback-carrier';
import { FormParams, firstValues } from '../signing/form-params';
import {
  answeredByOf,
  CARRIER_A_EVENTS,
  CARRIER_A_FINAL_STATUSES,
  carrierACallRecord,
  e164Of,
  hangupSourceOf,
  intOrNull,
} from './carrier-a-fields';
import {
  CARRIER_A_NONCE_HEADER,
  CARRIER_A_SIGNATURE_HEADER,
  verifyCarrierASignature,
} from './carrier-a-signature';

const PROVIDER = 'carrier_a' as const;

/** A human leg's CallStatus in the platform's words (ring and hangup callbacks). */
function transferLegStatusOf(status: string | undefined): TransferLegCallback['status'] {
  switch (status) {
    case 'ringing':
      return 'ringing';
    case 'in-progress':
      return 'answered';
    case 'completed':
      return 'completed';
    case 'busy':
      return 'busy';
    case 'no-answer':
    case 'timeout':
      return 'no_answer';
    case 'failed':
    case 'cancel':
    case 'canceled':
      return 'failed';
    default:
      return null;
  }
}

/** carrier_a's answer markup (Plivo XML). */
export const CARRIER_A_MARKUP: MarkupDialect = {
  say: (text) => `<Speak>${text}</Speak>`,
  reject: '<Hangup reason="rejected"/>',
  dial: (number) => `<Dial><Number>${number}</Number></Dial>`,
  // A verb of its own in carrier_a's XML; either member leaving ends it for the other, with no sounds.
  conference: (room) =>
    `<Conference startConferenceOnEnter="true" endConferenceOnExit="true" enterSound="" exitSound="">${room}</Conference>`,
  // Bidirectional mu-law 8 kHz that keeps the call up while the socket is open; the call's id comes back
  // in the start message's extra_headers.
  stream: (url, callId) => carrierAStreamMarkup(url, { extraHeaders: { callId } }),
};

/**
 * carrier_a (REST shaped like Plivo's): calls are placed as JSON with the partner's auth id and token and
 * our answer, ring and hangup URLs; each callback is verified with signature V3 before it is read.
 */
@Injectable()
export class CarrierAAdapter
  extends FormCallbackCarrier<CarrierACredentials>
  implements CarrierAdapter, NumberDetacher, InboundCallParser
{
  readonly provider = PROVIDER;
  protected readonly markup = CARRIER_A_MARKUP;
  /** `GET /v1/Account/{auth_id}/`: the account's details (Plivo API v1, Account resource). */
  protected readonly accountResource = '/';

  async placeCall(call: OutboundCall, connection: CarrierConnectionRef): Promise<{ providerCallId: string }> {
    const creds = await this.openCredentials(connection.id);
    const body: Record<string, unknown> = {
      from: call.fromNumber,
      to: call.toNumber,
      answer_url: call.callbackUrl('answer'),
      answer_method: 'POST',
      ring_url: call.callbackUrl('ring'),
      ring_method: 'POST',
      hangup_url: call.callbackUrl('hangup'),
      hangup_method: 'POST',
    };
    if (call.agent.maxCallDurationSecs) body.time_limit = call.agent.maxCallDurationSecs;
    if (call.agent.voicemailDetectionEnabled) {
      // Asynchronous: the callee is not held in silence while detection runs; a machine verdict that comes
      // once the conversation started has the agent leave the voicemail message instead.
      body.machine_detection = 'true';
      body.machine_detection_url = call.callbackUrl('machine');
      body.machine_detection_method = 'POST';
    }
    return {
      providerCallId: await this.place(creds, { method: 'POST', path: '/Call/', json: body }, 'request_uuid'),
    };
  }

  /**
   * `DELETE .../Call/{call_uuid}/` hangs up the answered leg; before a callback named the leg, the
   * placement is cancelled with `DELETE .../Request/{request_uuid}/`.
   */
  async hangup(call: CallbackCall, _reason: string): Promise<void> {
    if (!call.providerCallId) return;
    const creds = await this.openCredentials(carrierConnectionOf(call));
    const path = call.carrierLegId
      ? `/Call/${encodeURIComponent(call.carrierLegId)}/`
      : `/Request/${encodeURIComponent(call.providerCallId)}/`;
    const res = await this.send(creds, { method: 'DELETE', path });
    if (res.status !== 404) this.expectSuccess(res);
  }

  async parseCallback(request: CallbackRequest, call: CallbackCall): Promise<ParsedCallback> {
    const f = firstValues(await this.verified(request, call.connectionId));
    const status = f.CallStatus ?? null;
    // An inbound call's later callbacks arrive on the inbound URL: a final status there is its hangup.
    const kind =
      request.params.event === 'inbound'
        ? CARRIER_A_FINAL_STATUSES.includes(status ?? '')
          ? 'hangup'
          : 'progress'
        : request.params.event;
    if (!(CARRIER_A_EVENTS as readonly string[]).includes(kind) && kind !== 'progress') {
      throw AppError.notFound('Callback');
    }
    // Outbound callbacks name the placement's request_uuid (ALegRequestUUID); inbound ones the CallUUID.
    const ids = [f.CallUUID, f.ALegRequestUUID, f.RequestUUID].filter(Boolean);
    if (call.providerCallId && ids.length && !ids.includes(call.providerCallId)) {
      throw AppError.validation([
        { field: 'CallUUID', message: 'the callback does not belong to this call' },
      ]);
    }
    const hangup = kind === 'hangup';
    // An outbound call whose request_uuid was never saved learns it from its own (signed) callbacks.
    const placementId = call.providerCallId ? undefined : (f.ALegRequestUUID ?? f.RequestUUID);
    return {
      ...(placementId ? { placementId } : {}),
      // The leg's own id is what a hang-up names; outbound calls only learn it from their callbacks.
      carrierLegId:
        f.CallUUID && f.CallUUID !== call.providerCallId && !call.carrierLegId ? f.CallUUID : undefined,
      events: [
        {
          provider: PROVIDER,
          kind: 'status',
          // One callback per kind and status: a retry of the same callback changes nothing.
          dedupeKey: `${kind}:${status}`,
          providerStatus: status,
          providerEvent: kind,
          sequence: null,
          ended: hangup,
          occurredAt: new Date(),
          answeredBy: answeredByOf(f.Machine),
          hangupCause: hangup ? (f.HangupCauseName ?? f.HangupCause ?? null) : null,
          hangupSource: hangup ? hangupSourceOf(f.HangupSource) : null,
          durationSeconds: intOrNull(f.Duration),
          billDurationSeconds: intOrNull(f.BillDuration),
          carrierCallId: f.CallUUID ?? null,
        },
      ],
      reply:
        kind === 'answer'
          ? this.answerReply(call.id)
          : kind === 'transfer'
            ? this.transferReply(request)
            : undefined,
    };
  }

  /**
   * A cold transfer: `POST .../Call/{call_uuid}/` with `legs=aleg` moves the answered leg to new XML, which
   * carrier_a fetches from our `transfer` callback (signed like every callback) naming the number in its
   * query; the stream ends and the caller is dialled through.
   */
  async transfer(call: CallbackCall, to: string): Promise<boolean> {
    const leg = call.carrierLegId ?? call.providerCallId;
    if (!leg) return false;
    const creds = await this.openCredentials(carrierConnectionOf(call));
    const transferUrl = `${this.urls.forCall(PROVIDER, call.id)('transfer')}?${new URLSearchParams({ to })}`;
    const res = await this.send(creds, {
      method: 'POST',
      path: `/Call/${encodeURIComponent(leg)}/`,
      json: { legs: 'aleg', aleg_url: transferUrl, aleg_method: 'POST' },
    });
    if (res.status === 404) return false;
    this.expectSuccess(res);
    return true;
  }

  /**
   * A warm transfer's human leg: `POST .../Call/` to the human with its own answer, ring and hangup URLs, ringing
   * `ring_timeout` seconds. It is known by its request_uuid until a callback names its CallUUID.
   */
  async placeTransferLeg(call: CallbackCall, leg: TransferLegPlacement): Promise<{ carrierCallId: string }> {
    const creds = await this.openCredentials(carrierConnectionOf(call));
    const body = {
      from: leg.from,
      to: leg.to,
      answer_url: leg.callbackUrl(TRANSFER_LEG_EVENTS.answer),
      answer_method: 'POST',
      ring_url: leg.callbackUrl(TRANSFER_LEG_EVENTS.status),
      ring_method: 'POST',
      hangup_url: leg.callbackUrl(TRANSFER_LEG_EVENTS.status),
      hangup_method: 'POST',
      ring_timeout: leg.ringTimeoutSecs,
    };
    const id = await this.place(creds, { method: 'POST', path: '/Call/', json: body }, 'request_uuid');
    return { carrierCallId: id };
  }

  async parseTransferLegCallback(
    request: CallbackRequest,
    call: CallbackCall,
    leg: { carrierCallId: string | null; consultId: string; room: string },
  ): Promise<TransferLegCallback> {
    const f = firstValues(await this.verified(request, call.connectionId));
    const carrierCallId = f.CallUUID ?? null;
    const placementId = f.ALegRequestUUID ?? f.RequestUUID ?? null;
    const occurredAt = new Date();
    switch (request.params.event) {
      case TRANSFER_LEG_EVENTS.answer:
        // The human picked up: their leg streams to the media plane, where the agent briefs them.
        return {
          carrierCallId,
          placementId,
          status: 'answered',
          occurredAt,
          reply: streamReply(this.markup, this.streamUrlOf(leg.consultId), leg.consultId),
        };
      case TRANSFER_LEG_EVENTS.conference:
        return {
          carrierCallId,
          placementId,
          status: null,
          occurredAt,
          reply: xmlReply(`<Response>${CARRIER_A_MARKUP.conference(xmlEscape(leg.room))}</Response>`),
        };
      default:
        return { carrierCallId, placementId, status: transferLegStatusOf(f.CallStatus), occurredAt };
    }
  }

  /**
   * Both legs into one conference: each leg (the human's first) is moved with `legs=aleg` to our signed
   * `transfer_conference` callback, whose XML joins the room; either leaving ends it for both.
   */
  async bridge(call: CallbackCall, humanLegId: string, _room: string): Promise<boolean> {
    const callerLeg = call.carrierLegId ?? call.providerCallId;
    if (!callerLeg) return false;
    const creds = await this.openCredentials(carrierConnectionOf(call));
    const alegUrl = this.urls.forCall(PROVIDER, call.id)(TRANSFER_LEG_EVENTS.conference);
    for (const leg of [humanLegId, callerLeg]) {
      const res = await this.send(creds, {
        method: 'POST',
        path: `/Call/${encodeURIComponent(leg)}/`,
        json: { legs: 'aleg', aleg_url: alegUrl, aleg_method: 'POST' },
      });
      if (res.status === 404) return false;
      this.expectSuccess(res);
    }
    return true;
  }

  /**
   * Hangs up a leg of the call's transfer: `DELETE .../Call/{CallUUID}/`; a leg still known only by its
   * request_uuid (no callback named it yet) is cancelled with `DELETE .../Request/{request_uuid}/`.
   */
  async hangupLeg(call: CallbackCall, carrierCallId: string): Promise<void> {
    const creds = await this.openCredentials(carrierConnectionOf(call));
    const res = await this.send(creds, {
      method: 'DELETE',
      path: `/Call/${encodeURIComponent(carrierCallId)}/`,
    });
    if (res.status !== 404) return this.expectSuccess(res);
    const request = await this.send(creds, {
      method: 'DELETE',
      path: `/Request/${encodeURIComponent(carrierCallId)}/`,
    });
    if (request.status !== 404) this.expectSuccess(request);
  }

  /**
   * `POST .../Call/{call_uuid}/DTMF/` with `digits` and `leg=aleg`: the carrier plays the tones to the far end
   * of the answered leg (the party the agent talks to) while the stream goes on.
   */
  async sendDigits(call: CallbackCall, digits: string): Promise<boolean> {
    const leg = call.carrierLegId ?? call.providerCallId;
    if (!leg) return false;
    const creds = await this.openCredentials(carrierConnectionOf(call));
    const res = await this.send(creds, {
      method: 'POST',
      path: `/Call/${encodeURIComponent(leg)}/DTMF/`,
      json: { digits, leg: 'aleg' },
    });
    if (res.status === 404) return false;
    this.expectSuccess(res);
    return true;
  }

  /** The transfer callback's XML: dial the number our own transfer request put in the (signed) URL. */
  private transferReply(request: CallbackRequest) {
    const to = new URL(request.path, 'http://callback.invalid').searchParams.get('to') ?? '';
    if (!E164_PATTERN.test(to)) {
      throw AppError.validation([{ field: 'to', message: 'a transfer callback needs to in E.164' }]);
    }
    return dialReply(CARRIER_A_MARKUP, to);
  }

  async parseInboundCall(
    request: CallbackRequest,
    connection: CarrierConnectionRef,
  ): Promise<InboundCallAnnouncement> {
    const f = firstValues(await this.verified(request, connection.id));
    if (!f.CallUUID || !f.From || !f.To) {
      throw AppError.validation([
        { field: 'CallUUID', message: 'an inbound call webhook needs CallUUID, From and To' },
      ]);
    }
    return {
      providerCallId: f.CallUUID,
      fromNumber: e164Of(f.From),
      toNumber: e164Of(f.To),
      direction: f.Direction ?? 'inbound',
    };
  }

  /** Clears the number's application (best effort; the caller deletes the number whatever happens). */
  async detachNumber(connectionId: string, number: string): Promise<void> {
    const creds = await this.openCredentials(connectionId);
    const res = await this.send(creds, {
      method: 'POST',
      path: `/Number/${encodeURIComponent(number.replace(/^\+/, ''))}/`,
      json: { app_id: '' },
    });
    this.expectSuccess(res);
  }

  /**
   * The call leg at the carrier: live (`GET .../Call/{call_uuid}/?status=live`), else its call record
   * (`GET .../Call/{call_uuid}/`). The leg id is the CallUUID of the callback being checked (an
   * outbound call is placed under its request_uuid); the record must carry the call's own numbers.
   */
  async fetchCall(call: Call, hint: { carrierCallId?: string | null }): Promise<CarrierCallState> {
    const leg = hint.carrierCallId ?? call.providerCallId;
    if (!leg) throw AppError.downstream(`${PROVIDER} call ${call.id} has no CallUUID to look up`);
    const creds = await this.openCredentials(carrierConnectionOf(call));
    const path = `/Call/${encodeURIComponent(leg)}/`;
    const live = await this.send(creds, { method: 'GET', path: `${path}?status=live` });
    if (live.status === 200) {
      const body = live.body as { call_status?: unknown; request_uuid?: unknown } | null;
      if (call.direction === 'outbound' && body?.request_uuid && body.request_uuid !== call.providerCallId) {
        throw AppError.downstream(`${PROVIDER} returned the live leg of another call`);
      }
      return { live: true, providerStatus: String(body?.call_status ?? 'in-progress') };
    }
    if (live.status !== 404) throw carrierError(PROVIDER, live);
    const record = await this.send(creds, { method: 'GET', path });
    // Only a leg's own CallUUID says the call is unknown: an outbound call's request_uuid (no leg named yet)
    // is not always found by this lookup, so a 404 for it proves nothing.
    const byLeg = call.direction !== 'outbound' || leg !== call.providerCallId;
    if (record.status === 404 && byLeg) throw new CarrierCallGone(PROVIDER, leg);
    if (record.status !== 200 || !record.body || typeof record.body !== 'object') {
      throw carrierError(PROVIDER, record);
    }
    return carrierACallRecord(record.body as Record<string, unknown>, call);
  }

  protected accountPath(creds: CarrierACredentials): string {
    return `/v1/Account/${encodeURIComponent(creds.auth_id)}`;
  }

  protected basicOf(creds: CarrierACredentials) {
    return { user: creds.auth_id, password: creds.auth_token };
  }

  /** Signature V3 over the stream URL as a GET (its query sorted, no body) and the nonce header. */
  protected upgradeSignatureMatches(
    url: string,
    headers: Record<string, string>,
    creds: CarrierACredentials,
  ): boolean {
    return verifyCarrierASignature(
      creds.auth_token,
      'GET',
      url,
      new Map(),
      headers[CARRIER_A_SIGNATURE_HEADER],
      headers[CARRIER_A_NONCE_HEADER],
    );
  }

  /** Signature V3 over the URL we handed out, the method, the posted parameters and the nonce. */
  protected signatureMatches(
    request: CallbackRequest,
    signedUrl: string,
    params: FormParams,
    creds: CarrierACredentials,
  ): boolean {
    return verifyCarrierASignature(
      creds.auth_token,
      request.method,
      signedUrl,
      params,
      request.headers[CARRIER_A_SIGNATURE_HEADER],
      request.headers[CARRIER_A_NONCE_HEADER],
    );
  }
}
