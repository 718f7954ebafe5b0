import { Controller, createParamDecorator, ExecutionContext } from '@nestjs/common';
import {
  AppError,
  RpcRequest,
  Subjects,
  VoiceAck,
  VoiceAttachRequest,
  VoiceBrowserRefusedRequest,
  VoiceEndedRequest,
  VoiceHandoffRequest,
  VoiceHangupRequest,
  VoiceOptOutRequest,
  VoiceSendDtmfRequest,
  VoiceToolCallRequest,
  VoiceTranscriptRequest,
  VoiceTransferDecisionRequest,
  VoiceTransferRequest,
  VoiceWarmTransferRequest,
} from '@vap/messages';
import { Command, Data } from '@vap/messaging';
import { BrowserTransport } from '../carriers/browser/browser-transport';
import {
  AttachVoice,
  EndVoiceSession,
  HandOffCall,
  HangUpCall,
  OptOutCaller,
  RecordToolCall,
  RecordTranscriptLine,
  SendDigits,
  TransferCall,
  WarmTransfer,
  DecideTransfer,
} from './usecases';

/**
 * The partner a command acts for, when it names one. The voice service is a system caller: it knows the
 * partner only once calls.voice.attach answered the call's context, so @PartnerId (which requires one)
 * does not fit; a command that does name a partner is held to the call's own.
 */
const PartnerIdIfAny = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): string | null =>
    ctx.switchToRpc().getData<RpcRequest>().partnerId ?? null,
);

const ACK: VoiceAck = { ok: true };

/** Commands of the media plane (apps/voice) about the live conversations it runs, each to its use case. */
@Controller()
export class VoiceHandlers {
  constructor(
    private readonly attachVoice: AttachVoice,
    private readonly recordTranscriptLine: RecordTranscriptLine,
    private readonly recordToolCall: RecordToolCall,
    private readonly transferCall: TransferCall,
    private readonly warmTransfer: WarmTransfer,
    private readonly decideTransfer: DecideTransfer,
    private readonly hangUpCall: HangUpCall,
    private readonly handOffCall: HandOffCall,
    private readonly optOutCaller: OptOutCaller,
    private readonly sendDigits: SendDigits,
    private readonly endVoiceSession: EndVoiceSession,
    private readonly browser: BrowserTransport,
  ) {}

  @Command(Subjects.calls.voiceAttach)
  attach(@Data() request: VoiceAttachRequest) {
    return this.attachVoice.execute(request);
  }

  /** A browser stream the voice service refused before its attach (expired token, full replica). */
  @Command(Subjects.calls.voiceBrowserRefused)
  async browserRefused(@Data() request: VoiceBrowserRefusedRequest) {
    const reason = request?.reason;
    if (typeof request?.sessionId !== 'string' || (reason !== 'token_expired' && reason !== 'capacity')) {
      throw AppError.validation([
        { field: 'reason', message: 'a refusal names the session and token_expired or capacity' },
      ]);
    }
    const origin = typeof request.origin === 'string' ? request.origin : null;
    await this.browser.recordRefusal(request.sessionId, reason, origin);
    return ACK;
  }

  @Command(Subjects.calls.voiceTranscript)
  async transcript(@Data() request: VoiceTranscriptRequest, @PartnerIdIfAny() partnerId: string | null) {
    await this.recordTranscriptLine.execute(request, partnerId);
    return ACK;
  }

  @Command(Subjects.calls.voiceToolCall)
  async toolCall(@Data() request: VoiceToolCallRequest, @PartnerIdIfAny() partnerId: string | null) {
    await this.recordToolCall.execute(request, partnerId);
    return ACK;
  }

  @Command(Subjects.calls.voiceTransfer)
  transfer(@Data() request: VoiceTransferRequest, @PartnerIdIfAny() partnerId: string | null) {
    return this.transferCall.execute(request, partnerId);
  }

  @Command(Subjects.calls.voiceWarmTransfer)
  warm(@Data() request: VoiceWarmTransferRequest, @PartnerIdIfAny() partnerId: string | null) {
    return this.warmTransfer.execute(request, partnerId);
  }

  @Command(Subjects.calls.voiceTransferDecision)
  transferDecision(
    @Data() request: VoiceTransferDecisionRequest,
    @PartnerIdIfAny() partnerId: string | null,
  ) {
    return this.decideTransfer.execute(request, partnerId);
  }

  @Command(Subjects.calls.voiceHandoff)
  handoff(@Data() request: VoiceHandoffRequest, @PartnerIdIfAny() partnerId: string | null) {
    return this.handOffCall.execute(request, partnerId);
  }

  @Command(Subjects.calls.voiceHangup)
  async hangup(@Data() request: VoiceHangupRequest, @PartnerIdIfAny() partnerId: string | null) {
    await this.hangUpCall.execute(request, partnerId);
    return ACK;
  }

  @Command(Subjects.calls.voiceOptOut)
  optOut(@Data() request: VoiceOptOutRequest, @PartnerIdIfAny() partnerId: string | null) {
    return this.optOutCaller.execute(request, partnerId);
  }

  @Command(Subjects.calls.voiceSendDtmf)
  sendDtmf(@Data() request: VoiceSendDtmfRequest, @PartnerIdIfAny() partnerId: string | null) {
    return this.sendDigits.execute(request, partnerId);
  }

  @Command(Subjects.calls.voiceEnded)
  async ended(@Data() request: VoiceEndedRequest, @PartnerIdIfAny() partnerId: string | null) {
    await this.endVoiceSession.execute(request, partnerId);
    return ACK;
  }
}
