import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import {
  AnsweredBy,
  AppError,
  CALL_DISPOSITIONS,
  CallDisposition,
  ErrorCode,
  HANGUP_SOURCES,
  HangupSource,
} from '@vap/messages';
import {
  CallbackCall,
  CallbackRequest,
  CarrierAdapter,
  CarrierConnectionRef,
  OutboundCall,
  ParsedCallback,
  RawCarrierEvent,
} from '../carrier-adapter';
import { CallbackUrls } from '../callback-urls';
import { recordingKey as recordingKeyOf } from '../../recording/recording-store';
import { SandboxCallRunner } from './sandbox-call-runner';
import { verifySandboxCallback } from './sandbox-signature';
import { SandboxSigningKey } from './sandbox-signing-key';

function oneOf<T extends string>(values: readonly T[], value: string | null): T | null {
  return value !== null && (values as readonly string[]).includes(value) ? (value as T) : null;
}

function intOrNull(value: string | null): number | null {
  return value !== null && /^\d+$/.test(value) ? Number(value) : null;
}

/**
 * The platform's own carrier: no telephone network, outcomes chosen by the callee number (see
 * sandbox-outcomes.ts). Its callbacks travel the real path: HTTP to the gateway, NATS to this service,
 * signature check here.
 */
@Injectable()
export class SandboxCarrier implements CarrierAdapter {
  readonly provider = 'sandbox' as const;
  /** The simulated phone runs in this process (the agent's side runs in the voice service). */
  readonly callsLiveInProcess = true;

  constructor(
    private readonly runner: SandboxCallRunner,
    private readonly urls: CallbackUrls,
    private readonly key: SandboxSigningKey,
  ) {}

  async placeCall(
    call: OutboundCall,
    _connection: CarrierConnectionRef,
  ): Promise<{ providerCallId: string }> {
    const providerCallId = `SB${randomBytes(16).toString('hex')}`;
    this.runner.start(call, providerCallId);
    return { providerCallId };
  }

  async hangup(call: CallbackCall, reason: string): Promise<void> {
    await this.runner.hangup(call.id, reason);
  }

  /** Cold transfer: the phone's media stream ends and the callee goes on with the human at `to`. */
  transfer(call: CallbackCall, to: string): Promise<boolean> {
    return this.runner.transfer(call.id, to);
  }

  async parseCallback(request: CallbackRequest, call: CallbackCall): Promise<ParsedCallback> {
    const url = this.urls.signedUrlOf(request.path);
    if (
      request.method !== 'POST' ||
      !verifySandboxCallback(this.key.value, request.headers, url, request.rawBody)
    ) {
      throw new AppError(ErrorCode.FORBIDDEN, 'Callback signature is missing or invalid');
    }
    const form = new URLSearchParams(request.rawBody.toString('utf8'));
    const get = (name: string) => form.get(name);
    const sid = get('CallSid');
    // The signature already binds the callback to this call's URL; a CallSid, when sent, must agree.
    if (sid !== null && call.providerCallId && sid !== call.providerCallId) {
      throw AppError.validation([{ field: 'CallSid', message: 'CallSid does not belong to this call' }]);
    }
    const eventType = get('EventType') ?? 'call-progress';
    const sequence = intOrNull(get('SequenceNumber'));
    const status = get('CallStatus');
    const event: RawCarrierEvent = {
      provider: 'sandbox',
      kind: eventType === 'call-progress' ? 'status' : 'hold',
      dedupeKey: `seq:${sequence ?? `${eventType}:${status}`}`,
      providerStatus: status,
      providerEvent: eventType,
      sequence,
      ended: ['completed', 'busy', 'no-answer', 'failed', 'canceled'].includes(status ?? ''),
      occurredAt: new Date(get('Timestamp') ?? Date.now()),
      answeredBy: oneOf<AnsweredBy>(['human', 'machine'], get('AnsweredBy')),
      hangupCause: get('HangupCause'),
      hangupSource: oneOf<HangupSource>(HANGUP_SOURCES, get('HangupSource')),
      durationSeconds: intOrNull(get('CallDuration')),
      billDurationSeconds: intOrNull(get('CallDuration')),
      errorMessage: get('ErrorMessage'),
      disposition: oneOf<CallDisposition>(CALL_DISPOSITIONS, get('Disposition')),
      endCallReason: get('EndCallReason'),
    };
    if (event.kind === 'hold') {
      event.hold = {
        phase: eventType === 'hold-start' ? 'start' : 'end',
        kind: get('HoldKind') ?? 'carrier_hold',
        durationSecs: intOrNull(get('HoldDuration')),
      };
    }
    const recordingKey = get('RecordingKey');
    // Only the call's own recording object: a callback cannot point a call at another's file.
    if (recordingKey && recordingKey === recordingKeyOf(call.partnerId, call.id)) {
      event.recording = {
        storageKey: recordingKey,
        url: null,
        durationSeconds: intOrNull(get('RecordingDuration')),
      };
    }
    return { events: [event] };
  }
}
