import { Injectable } from '@nestjs/common';
import { AppError, CALL_DISPOSITIONS, CallDisposition, HANGUP_SOURCES, HangupSource } from '@vap/messages';
import { carrierBStreamMarkup } from '@vap/media';
import { Call, carrierConnectionOf } from '../../calls/entities/call.entity';
import { InboundCallAnnouncement, InboundCallParser } from '../inbound-call-parser';
import { NumberDetacher } from '../../telephony/phone-numbers/number-detachers';
import { CarrierBCredentials } from '../../telephony/connections/credentials-store.service';
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
import { RawCarrierEvent } from '../../progress/raw-carrier-event';
import { CarrierCallGone, carrierError } from '../carrier-http';
import { MarkupDialect, streamReply, xmlEscape } from '../carrier-xml';
import { FormCallbackCarrier } from '../form-callback-carrier';
import { FormParams, firstValues } from '../signing/form-params';
import {
  answeredByOf,
  CARRIER_B_EVENTS,
  CARRIER_B_FINAL_STATUSES,
  carrierBCallState,
  intOrNull,
  occurredAtOf,
} from './carrier-b-fields';
import { CARRIER_B_SIGNATURE_HEADER, verifyCarrierBSignature } from './carrier-b-signature';

/** The CallbackSource of hold callbacks (a carrier hold on the call starts or ends). */
const HOLD_EVENTS = 'hold-events';

/** A human leg's CallStatus in the platform's words; queued and initiated say nothing yet. */
function transferLegStatusOf(status: string | undefined): TransferLegCallback['status'] {
  switch (status) {
    case 'ringing':
      return 'ringing';
    case 'in-progress':
      return 'answered';
    case 'completed':
      return 'completed';
    case 'no-answer':
      return 'no_answer';
    case 'busy':
      return 'busy';
    case 'failed':
    case 'canceled':
      return 'failed';
    default:
      return null;
  }
}

function oneOf<T extends string>(values: readonly T[], value: string | undefined): T | null {
  return value !== undefined && (values as readonly string[]).includes(value) ? (value as T) : null;
}

/** carrier_b's answer markup (TwiML). */
export const CARRIER_B_MARKUP: MarkupDialect = {
  say: (text) => `<Say>${text}</Say>`,
  reject: '<Reject reason="rejected"/>',
  dial: (number) => `<Dial>${number}</Dial>`,
  // Nobody waits for anyone (startConferenceOnEnter), no beeps, and either leg leaving ends it for the other.
  conference: (room) =>
    `<Conference beep="false" startConferenceOnEnter="true" endConferenceOnExit="true">${room}</Conference>`,
  // <Connect><Stream>: bidirectional; the call's id comes back in the start message's customParameters.
  stream: (url, callId) => carrierBStreamMarkup(url, { callId }),
};

/**
 * carrier_b (REST shaped like Twilio's): calls are placed form-encoded with the partner's account SID and
 * auth token, progress arrives as signed form callbacks (X-Twilio-Signature) verified with that token.
 */
@Injectable()
export class CarrierBAdapter
  extends FormCallbackCarrier<CarrierBCredentials>
  implements CarrierAdapter, NumberDetacher, InboundCallParser
{
  /** carrier_b, or another account of carrier_b's shape the platform holds itself (see SandboxLineCarrier). */
  readonly provider: 'carrier_b' | 'sandbox' = 'carrier_b';
  protected readonly markup = CARRIER_B_MARKUP;
  /** `GET /2010-04-01/Accounts/{AccountSid}.json`: the account resource (Twilio REST API 2010-04-01). */
  protected readonly accountResource = '.json';

  async placeCall(call: OutboundCall, connection: CarrierConnectionRef): Promise<{ providerCallId: string }> {
    const creds = await this.openCredentials(connection.id);
    const form = new URLSearchParams({
      To: call.toNumber,
      From: call.fromNumber,
      Url: call.callbackUrl('answer'),
      Method: 'POST',
      StatusCallback: call.callbackUrl('status'),
      StatusCallbackMethod: 'POST',
      Record: call.agent.enableRecording ? 'true' : 'false',
    });
    for (const event of ['initiated', 'ringing', 'answered', 'completed'])
      form.append('StatusCallbackEvent', event);
    if (call.agent.voicemailDetectionEnabled) {
      // Asynchronous: the callee is not held in silence while detection runs; the verdict comes on the
      // `amd` callback, and a machine has the agent leave the voicemail message instead.
      form.set('MachineDetection', 'Enable');
      form.set('AsyncAmd', 'true');
      form.set('AsyncAmdStatusCallback', call.callbackUrl('amd'));
      form.set('AsyncAmdStatusCallbackMethod', 'POST');
    }
    if (call.agent.maxCallDurationSecs) form.set('TimeLimit', String(call.agent.maxCallDurationSecs));
    return { providerCallId: await this.place(creds, { method: 'POST', path: '/Calls.json', form }, 'sid') };
  }

  /** `POST .../Calls/{CallSid}.json` with `Status=completed` hangs up a live call. */
  async hangup(call: CallbackCall, _reason: string): Promise<void> {
    if (!call.providerCallId) return;
    const creds = await this.openCredentials(carrierConnectionOf(call));
    const res = await this.send(creds, {
      method: 'POST',
      path: `/Calls/${encodeURIComponent(call.providerCallId)}.json`,
      form: new URLSearchParams({ Status: 'completed' }),
    });
    if (res.status !== 404) this.expectSuccess(res);
  }

  /**
   * A live call update: `POST .../Calls/{CallSid}.json` with new TwiML that dials the number; the carrier
   * ends the <Connect><Stream> and bridges the caller to it.
   */
  async transfer(call: CallbackCall, to: string): Promise<boolean> {
    if (!call.providerCallId) return false;
    const creds = await this.openCredentials(carrierConnectionOf(call));
    const res = await this.send(creds, {
      method: 'POST',
      path: `/Calls/${encodeURIComponent(call.providerCallId)}.json`,
      form: new URLSearchParams({ Twiml: `<Response>${CARRIER_B_MARKUP.dial(xmlEscape(to))}</Response>` }),
    });
    if (res.status === 404) return false;
    this.expectSuccess(res);
    return true;
  }

  /**
   * A warm transfer's human leg: `POST .../Calls.json` to the human with its own answer URL and status callback,
   * ringing `Timeout` seconds before carrier_b gives up with `no-answer`.
   */
  async placeTransferLeg(call: CallbackCall, leg: TransferLegPlacement): Promise<{ carrierCallId: string }> {
    const creds = await this.openCredentials(carrierConnectionOf(call));
    const form = new URLSearchParams({
      To: leg.to,
      From: leg.from,
      Url: leg.callbackUrl(TRANSFER_LEG_EVENTS.answer),
      Method: 'POST',
      StatusCallback: leg.callbackUrl(TRANSFER_LEG_EVENTS.status),
      StatusCallbackMethod: 'POST',
      Timeout: String(leg.ringTimeoutSecs),
    });
    for (const event of ['initiated', 'ringing', 'answered', 'completed'])
      form.append('StatusCallbackEvent', event);
    return { carrierCallId: await this.place(creds, { method: 'POST', path: '/Calls.json', form }, 'sid') };
  }

  async parseTransferLegCallback(
    request: CallbackRequest,
    call: CallbackCall,
    leg: { carrierCallId: string | null; consultId: string; room: string },
  ): Promise<TransferLegCallback> {
    const f = firstValues(await this.verified(request, call.connectionId));
    if (leg.carrierCallId && f.CallSid !== leg.carrierCallId) {
      throw AppError.validation([{ field: 'CallSid', message: "CallSid is not this transfer's leg" }]);
    }
    const occurredAt = occurredAtOf(f.Timestamp);
    const carrierCallId = f.CallSid ?? null;
    if (request.params.event === TRANSFER_LEG_EVENTS.answer) {
      // The human picked up: their leg streams to the media plane, where the agent briefs them.
      const url = this.streamUrlOf(leg.consultId);
      return {
        carrierCallId,
        status: 'answered',
        occurredAt,
        reply: streamReply(this.markup, url, leg.consultId),
      };
    }
    return { carrierCallId, status: transferLegStatusOf(f.CallStatus), occurredAt };
  }

  /**
   * Both legs into one conference: each is updated with TwiML that dials the room (the human's first, so the
   * caller never waits alone in it); either leaving ends it for both.
   */
  async bridge(call: CallbackCall, humanLegId: string, room: string): Promise<boolean> {
    if (!call.providerCallId) return false;
    const creds = await this.openCredentials(carrierConnectionOf(call));
    const twiml = `<Response><Dial>${CARRIER_B_MARKUP.conference(xmlEscape(room))}</Dial></Response>`;
    for (const sid of [humanLegId, call.providerCallId]) {
      const res = await this.send(creds, {
        method: 'POST',
        path: `/Calls/${encodeURIComponent(sid)}.json`,
        form: new URLSearchParams({ Twiml: twiml }),
      });
      if (res.status === 404) return false;
      this.expectSuccess(res);
    }
    return true;
  }

  /** `POST .../Calls/{CallSid}.json` with `Status=completed` on a leg of the call's transfer. */
  async hangupLeg(call: CallbackCall, carrierCallId: string): Promise<void> {
    await this.hangup({ ...call, providerCallId: carrierCallId }, 'transfer_leg');
  }

  async parseCallback(request: CallbackRequest, call: CallbackCall): Promise<ParsedCallback> {
    const params = await this.verified(request, call.connectionId);
    const f = firstValues(params);
    if (call.providerCallId && f.CallSid !== call.providerCallId) {
      throw AppError.validation([{ field: 'CallSid', message: 'CallSid does not belong to this call' }]);
    }
    const status = f.CallStatus ?? null;
    const kind = request.params.event;
    if (!(CARRIER_B_EVENTS as readonly string[]).includes(kind)) throw AppError.notFound('Callback');
    if (f.CallbackSource === HOLD_EVENTS) return { events: [this.holdEvent(f)] };
    const events: RawCarrierEvent[] = [
      {
        provider: this.provider,
        kind: 'status',
        // One callback per status; a retried callback carries the same status and changes nothing. The
        // asynchronous machine detection result (`amd`, no CallStatus) comes once per call.
        dedupeKey: kind === 'amd' ? 'amd' : `status:${status}`,
        providerStatus: status,
        providerEvent: f.CallbackSource ?? kind,
        sequence: intOrNull(f.SequenceNumber),
        ended: CARRIER_B_FINAL_STATUSES.includes(status ?? ''),
        occurredAt: occurredAtOf(f.Timestamp),
        answeredBy: answeredByOf(f.AnsweredBy),
        durationSeconds: intOrNull(f.CallDuration),
        billDurationSeconds: intOrNull(f.CallDuration),
        errorMessage: f.ErrorMessage ?? null,
        // Optional hang-up details a carrier of this shape may add to the final status callback.
        hangupCause: f.HangupCause ?? null,
        hangupSource: oneOf<HangupSource>(HANGUP_SOURCES, f.HangupSource),
        disposition: oneOf<CallDisposition>(CALL_DISPOSITIONS, f.Disposition),
        endCallReason: f.EndCallReason?.slice(0, 100) ?? null,
      },
    ];
    if (f.RecordingUrl) {
      events.push({
        provider: this.provider,
        kind: 'recording',
        dedupeKey: `recording:${f.RecordingSid ?? f.RecordingUrl}`,
        providerStatus: status,
        providerEvent: 'recording',
        sequence: intOrNull(f.SequenceNumber),
        ended: false,
        occurredAt: occurredAtOf(f.Timestamp),
        recording: { storageKey: null, url: f.RecordingUrl, durationSeconds: intOrNull(f.RecordingDuration) },
      });
    }
    // The answer URL is fetched when the callee picks up; its TwiML connects the call's media stream.
    const reply = kind === 'answer' ? this.answerReply(call.id) : undefined;
    const placementId = !call.providerCallId && f.CallSid ? f.CallSid : undefined;
    return { events, reply, ...(placementId ? { placementId } : {}) };
  }

  async parseInboundCall(
    request: CallbackRequest,
    connection: CarrierConnectionRef,
  ): Promise<InboundCallAnnouncement> {
    const f = firstValues(await this.verified(request, connection.id));
    if (!f.CallSid || !f.From || !f.To) {
      throw AppError.validation([
        { field: 'CallSid', message: 'an inbound call webhook needs CallSid, From and To' },
      ]);
    }
    return {
      providerCallId: f.CallSid,
      fromNumber: f.From,
      toNumber: f.To,
      direction: f.Direction ?? 'inbound',
    };
  }

  /**
   * Detaches a number from its voice application: find the number's SID, then clear its application.
   * Best effort by contract: the caller logs a failure and deletes the number anyway.
   */
  async detachNumber(connectionId: string, number: string): Promise<void> {
    const creds = await this.openCredentials(connectionId);
    const found = await this.send(creds, {
      method: 'GET',
      path: `/IncomingPhoneNumbers.json?PhoneNumber=${encodeURIComponent(number)}`,
    });
    if (found.status !== 200) throw carrierError(this.provider, found);
    const list =
      (found.body as { incoming_phone_numbers?: { sid?: string }[] } | null)?.incoming_phone_numbers ?? [];
    for (const item of list) {
      if (!item.sid) continue;
      const res = await this.send(creds, {
        method: 'POST',
        path: `/IncomingPhoneNumbers/${encodeURIComponent(item.sid)}.json`,
        form: new URLSearchParams({ VoiceApplicationSid: '' }),
      });
      this.expectSuccess(res);
    }
  }

  /** The Call resource: `GET .../Calls/{CallSid}.json` with the account's credentials; 404: CarrierCallGone. */
  async fetchCall(call: Call): Promise<CarrierCallState> {
    const sid = call.providerCallId;
    if (!sid) throw AppError.downstream(`${this.provider} call ${call.id} has no CallSid to look up`);
    const creds = await this.openCredentials(carrierConnectionOf(call));
    const res = await this.send(creds, { method: 'GET', path: `/Calls/${encodeURIComponent(sid)}.json` });
    if (res.status === 404) throw new CarrierCallGone(this.provider, sid);
    if (res.status !== 200) throw carrierError(this.provider, res);
    const resource = res.body as { sid?: unknown; status?: unknown; duration?: unknown } | null;
    if (resource?.sid !== sid || typeof resource.status !== 'string') {
      throw AppError.downstream(`${this.provider} did not answer with the call resource of ${sid}`);
    }
    return carrierBCallState({ status: resource.status, duration: resource.duration });
  }

  /**
   * The account's calls from the call's number to its callee created since its dial began (a minute's clock
   * skew allowed): `GET .../Calls.json?To=&From=&PageSize=`, newest first, as carrier_b lists them.
   */
  async findPlacements(call: Call): Promise<string[]> {
    if (!call.dialStartedAt) return [];
    const creds = await this.openCredentials(carrierConnectionOf(call));
    const query = new URLSearchParams({ To: call.toNumber, From: call.fromNumber, PageSize: '50' });
    const res = await this.send(creds, { method: 'GET', path: `/Calls.json?${query}` });
    if (res.status !== 200) throw carrierError(this.provider, res);
    const calls = (res.body as { calls?: unknown } | null)?.calls;
    if (!Array.isArray(calls)) {
      throw AppError.downstream(`${this.provider} did not answer with a list of calls`);
    }
    const since = call.dialStartedAt.getTime() - 60_000;
    return (calls as { sid?: unknown; date_created?: unknown; direction?: unknown }[])
      .filter(
        (c) =>
          typeof c.sid === 'string' &&
          c.direction === 'outbound-api' &&
          typeof c.date_created === 'string' &&
          Date.parse(c.date_created) >= since,
      )
      .map((c) => c.sid as string);
  }

  /** A carrier hold on or off (CallbackSource hold-events): HoldEvent start | end, HoldKind, HoldDuration (s). */
  private holdEvent(f: Record<string, string | undefined>): RawCarrierEvent {
    const phase = f.HoldEvent === 'end' ? 'end' : 'start';
    return {
      provider: this.provider,
      kind: 'hold',
      dedupeKey: `hold:${phase}:${f.SequenceNumber ?? ''}`,
      providerStatus: f.CallStatus ?? null,
      providerEvent: HOLD_EVENTS,
      sequence: intOrNull(f.SequenceNumber),
      ended: false,
      occurredAt: occurredAtOf(f.Timestamp),
      hold: {
        phase,
        kind: f.HoldKind?.slice(0, 40) || 'carrier_hold',
        durationSecs: intOrNull(f.HoldDuration),
      },
    };
  }

  protected accountPath(creds: CarrierBCredentials): string {
    return `/2010-04-01/Accounts/${encodeURIComponent(creds.account_sid)}`;
  }

  protected basicOf(creds: CarrierBCredentials) {
    return { user: creds.account_sid, password: creds.auth_token };
  }

  /** The upgrade is signed like a callback over the wss URL exactly as given, with no parameters. */
  protected upgradeSignatureMatches(
    url: string,
    headers: Record<string, string>,
    creds: CarrierBCredentials,
  ): boolean {
    return verifyCarrierBSignature(creds.auth_token, url, new Map(), headers[CARRIER_B_SIGNATURE_HEADER]);
  }

  /** Only POST callbacks are signed: X-Twilio-Signature over the URL we handed out and the parameters. */
  protected signatureMatches(
    request: CallbackRequest,
    signedUrl: string,
    params: FormParams,
    creds: CarrierBCredentials,
  ): boolean {
    return (
      request.method === 'POST' &&
      verifyCarrierBSignature(
        creds.auth_token,
        signedUrl,
        params,
        request.headers[CARRIER_B_SIGNATURE_HEADER],
      )
    );
  }
}
