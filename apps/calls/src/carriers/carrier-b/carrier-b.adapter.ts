import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppError, CarrierCallbackReply, ErrorCode, InboundRouteDecisionDto } from '@vap/contracts';
import { Call } from '../../calls/entities/call.entity';
import { InboundCallAnnouncement, InboundCallParser } from '../../inbound-routing/inbound-call-parser';
import { NumberDetacher } from '../../phone-numbers/number-detacher';
import { CarrierBCredentials, CredentialsStore } from '../../telephony/credentials-store.service';
import { CallbackUrls } from '../callback-urls';
import {
  CallbackCall,
  CallbackRequest,
  CarrierAdapter,
  CarrierCallState,
  CarrierConnectionRef,
  OutboundCall,
  ParsedCallback,
  RawCarrierEvent,
} from '../carrier-adapter';
import { CarrierHttp, carrierError } from '../carrier-http';
import { xmlEscape, xmlReply } from '../carrier-xml';
import { firstValues, parseForm } from '../signing/form-params';
import {
  answeredByOf,
  CARRIER_B_FINAL_STATUSES,
  carrierBCallState,
  intOrNull,
  occurredAtOf,
} from './carrier-b-fields';
import { CARRIER_B_SIGNATURE_HEADER, verifyCarrierBSignature } from './carrier-b-signature';

const PROVIDER = 'carrier_b' as const;

/**
 * carrier_b (REST shaped like Twilio's): calls are placed form-encoded with the partner's account SID and
 * auth token, progress arrives as signed form callbacks (X-Twilio-Signature) verified with that token.
 */
@Injectable()
export class CarrierBAdapter implements CarrierAdapter, NumberDetacher, InboundCallParser {
  readonly provider = PROVIDER;
  readonly callsLiveInProcess = false;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly http: CarrierHttp,
    private readonly credentials: CredentialsStore,
    private readonly urls: CallbackUrls,
  ) {}

  async placeCall(call: OutboundCall, connection: CarrierConnectionRef): Promise<{ providerCallId: string }> {
    const creds = await this.credentials.open<CarrierBCredentials>(connection.id);
    const form = new URLSearchParams({
      To: call.toNumber,
      From: call.fromNumber,
      Url: call.callbackUrl('answer'),
      Method: 'POST',
      StatusCallback: call.callbackUrl('status'),
      StatusCallbackMethod: 'POST',
      Record: call.agent.enable_recording ? 'true' : 'false',
    });
    for (const event of ['initiated', 'ringing', 'answered', 'completed'])
      form.append('StatusCallbackEvent', event);
    if (call.agent.voicemail_detection_enabled) form.set('MachineDetection', 'Enable');
    if (call.agent.max_call_duration_secs) form.set('TimeLimit', String(call.agent.max_call_duration_secs));
    const res = await this.http.send(PROVIDER, {
      method: 'POST',
      url: `${this.accountUrl(creds)}/Calls.json`,
      basic: { user: creds.account_sid, password: creds.auth_token },
      form,
    });
    const sid = (res.body as { sid?: unknown } | null)?.sid;
    if (res.status < 200 || res.status > 299 || typeof sid !== 'string' || !sid)
      throw carrierError(PROVIDER, res);
    return { providerCallId: sid };
  }

  /** `POST .../Calls/{CallSid}.json` with `Status=completed` hangs up a live call. */
  async hangup(call: CallbackCall, _reason: string): Promise<void> {
    if (!call.providerCallId) return;
    const creds = await this.credentials.open<CarrierBCredentials>(call.connectionId);
    const res = await this.http.send(PROVIDER, {
      method: 'POST',
      url: `${this.accountUrl(creds)}/Calls/${encodeURIComponent(call.providerCallId)}.json`,
      basic: { user: creds.account_sid, password: creds.auth_token },
      form: new URLSearchParams({ Status: 'completed' }),
    });
    if (res.status === 404) return;
    if (res.status < 200 || res.status > 299) throw carrierError(PROVIDER, res);
  }

  async parseCallback(request: CallbackRequest, call: CallbackCall): Promise<ParsedCallback> {
    const params = await this.verified(request, call.connectionId);
    const f = firstValues(params);
    if (call.providerCallId && f.CallSid !== call.providerCallId) {
      throw AppError.validation([{ field: 'CallSid', message: 'CallSid does not belong to this call' }]);
    }
    const status = f.CallStatus ?? null;
    const kind = request.params.event;
    const events: RawCarrierEvent[] = [
      {
        provider: PROVIDER,
        kind: 'status',
        // One callback per status; a retried callback carries the same status and changes nothing.
        dedupeKey: `status:${status}`,
        providerStatus: status,
        providerEvent: f.CallbackSource ?? kind,
        sequence: intOrNull(f.SequenceNumber),
        ended: CARRIER_B_FINAL_STATUSES.includes(status ?? ''),
        occurredAt: occurredAtOf(f.Timestamp),
        answeredBy: answeredByOf(f.AnsweredBy),
        durationSeconds: intOrNull(f.CallDuration),
        billDurationSeconds: intOrNull(f.CallDuration),
        errorMessage: f.ErrorMessage ?? null,
      },
    ];
    if (f.RecordingUrl) {
      events.push({
        provider: PROVIDER,
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
    // The answer URL is fetched when the callee picks up; its TwiML greets with the agent's intro.
    const reply = kind === 'answer' ? await this.answerReply(call.id) : undefined;
    return { events, reply };
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

  inboundReply(decision: InboundRouteDecisionDto, speak: string | null): CarrierCallbackReply {
    switch (decision.action) {
      case 'REJECT':
        return xmlReply('<Response><Reject reason="rejected"/></Response>');
      case 'TRANSFER':
        return xmlReply(`<Response><Dial>${xmlEscape(decision.transfer_to_number ?? '')}</Dial></Response>`);
      default:
        return xmlReply(speak ? `<Response><Say>${xmlEscape(speak)}</Say></Response>` : '<Response/>');
    }
  }

  /**
   * Detaches a number from its voice application: find the number's SID, then clear its application.
   * Best effort by contract: the caller logs a failure and deletes the number anyway.
   */
  async detachNumber(connectionId: string, number: string): Promise<void> {
    const creds = await this.credentials.open<CarrierBCredentials>(connectionId);
    const basic = { user: creds.account_sid, password: creds.auth_token };
    const found = await this.http.send(PROVIDER, {
      method: 'GET',
      url: `${this.accountUrl(creds)}/IncomingPhoneNumbers.json?PhoneNumber=${encodeURIComponent(number)}`,
      basic,
    });
    if (found.status !== 200) throw carrierError(PROVIDER, found);
    const list =
      (found.body as { incoming_phone_numbers?: { sid?: string }[] } | null)?.incoming_phone_numbers ?? [];
    for (const item of list) {
      if (!item.sid) continue;
      const res = await this.http.send(PROVIDER, {
        method: 'POST',
        url: `${this.accountUrl(creds)}/IncomingPhoneNumbers/${encodeURIComponent(item.sid)}.json`,
        basic,
        form: new URLSearchParams({ VoiceApplicationSid: '' }),
      });
      if (res.status < 200 || res.status > 299) throw carrierError(PROVIDER, res);
    }
  }

  /** The Call resource: `GET .../Calls/{CallSid}.json` with the account's credentials. */
  async fetchCall(call: Call): Promise<CarrierCallState> {
    const sid = call.providerCallId;
    if (!sid) throw AppError.downstream(`${PROVIDER} call ${call.id} has no CallSid to look up`);
    const creds = await this.credentials.open<CarrierBCredentials>(call.connectionId);
    const res = await this.http.send(PROVIDER, {
      method: 'GET',
      url: `${this.accountUrl(creds)}/Calls/${encodeURIComponent(sid)}.json`,
      basic: { user: creds.account_sid, password: creds.auth_token },
    });
    if (res.status !== 200) throw carrierError(PROVIDER, res);
    const resource = res.body as { sid?: unknown; status?: unknown; duration?: unknown } | null;
    if (resource?.sid !== sid || typeof resource.status !== 'string') {
      throw AppError.downstream(`${PROVIDER} did not answer with the call resource of ${sid}`);
    }
    return carrierBCallState({ status: resource.status, duration: resource.duration });
  }

  private accountUrl(creds: CarrierBCredentials): string {
    return `${this.http.baseUrl(PROVIDER)}/2010-04-01/Accounts/${encodeURIComponent(creds.account_sid)}`;
  }

  /** Verifies the signature over the URL we handed out and the posted parameters; 403 before anything is read. */
  private async verified(request: CallbackRequest, connectionId: string) {
    const params = parseForm(request.rawBody.toString('utf8'));
    const creds = await this.credentials.open<CarrierBCredentials>(connectionId).catch(() => null);
    const url = this.urls.signedUrlOf(request.path);
    const ok =
      request.method === 'POST' &&
      !!creds &&
      verifyCarrierBSignature(creds.auth_token, url, params, request.headers[CARRIER_B_SIGNATURE_HEADER]);
    if (!ok) throw new AppError(ErrorCode.FORBIDDEN, 'Callback signature is missing or invalid');
    return params;
  }

  private async answerReply(callId: string): Promise<CarrierCallbackReply> {
    const call = await this.dataSource.getRepository(Call).findOne({ where: { id: callId } });
    const intro = call?.agentSettings?.intro_message ?? null;
    return xmlReply(intro ? `<Response><Say>${xmlEscape(intro)}</Say></Response>` : '<Response/>');
  }
}
