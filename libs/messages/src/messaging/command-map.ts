import type { CarrierCallbackIngest, CarrierCallbackReply } from '../calls/carrier-callback';
import type {
  AcknowledgeChargesReply,
  AcknowledgeChargesRequest,
  UnbilledChargesPage,
  UnbilledChargesRequest,
} from '../calls/call-charges';
import type { AgentForCall } from '../agents/agent-for-call';
import type { CustomFunctionInvokeReply, CustomFunctionInvokeRequest } from '../agents/custom-functions';
import type {
  ConnectCallbackRequest,
  ConnectFinishedReply,
  ConnectOpenReply,
  ConnectOpenRequest,
  ConnectSubmitKeyRequest,
} from '../agents/connectors';
import type { KnowledgeSearchCommand, KnowledgeSearchReply } from '../knowledge/knowledge-search';
import type {
  VoiceAck,
  VoiceAnsweredByReply,
  VoiceAnsweredByRequest,
  VoiceAttachRequest,
  VoiceCallContext,
  VoiceEndedRequest,
  VoiceHangupRequest,
  VoiceOptOutReply,
  VoiceOptOutRequest,
  VoiceSendDtmfReply,
  VoiceSendDtmfRequest,
  VoiceSendSmsReply,
  VoiceSendSmsRequest,
  VoiceSessionEndReply,
  VoiceSessionEndRequest,
  VoiceSessionTerminateReply,
  VoiceSessionTerminateRequest,
  VoiceToolCallRequest,
  VoiceBrowserRefusedRequest,
  VoiceTranscriptRequest,
  VoiceTransferReply,
  VoiceTransferRequest,
  VoiceHandoffReply,
  VoiceHandoffRequest,
  VoiceTransferDecisionReply,
  VoiceTransferDecisionRequest,
  VoiceTransferOutcomeReply,
  VoiceTransferOutcomeRequest,
  VoiceWarmTransferReply,
  VoiceWarmTransferRequest,
} from '../voice/voice-commands';
import type { SpeechPlan, SpeechPlanRequest } from '../voice/speech-plan';
import type { ModelPlan, ModelPlanRequest } from '../voice/model-plan';
import type { VoiceConfigurationList } from '../voices/voice-tiers';
import type { VoicePreview, VoicePreviewRequest } from '../voices/voice-preview';
import type { AddressedSubjects, ServiceName, Subjects } from './subjects';

/** A command without data (lists of the caller's whole collection, catalogs). */
export type EmptyRequest = Record<string, never>;
/** A command on one record of the caller's. */
export interface ByIdRequest {
  id: string;
}
/** A partial update of one record: the id from the path, the validated body as changes. */
export interface UpdateRequest<T> {
  id: string;
  changes: T;
}

/** What one command carries and what it answers. */
export interface CommandContract<Req, Reply> {
  request: Req;
  reply: Reply;
}

/**
 * Every command subject with what it carries and what it answers: the one place a command's types are
 * written. RpcClient.request, the @Command handler decorator and the type tests read them from here.
 *
 * Here are the commands whose data are internal messages; the commands that carry a public request or
 * answer a public response (a DTO of @vap/api) are added to this interface by @vap/api, so that what only
 * speaks internal messages (the voice service) never depends on the public schema.
 */
export interface ServiceCommands {
  'agents.voice_configuration.list': CommandContract<EmptyRequest, VoiceConfigurationList>;
  'agents.agent.for_call': CommandContract<ByIdRequest, AgentForCall>;
  'agents.speech.plan': CommandContract<SpeechPlanRequest, SpeechPlan>;
  'agents.model.plan': CommandContract<ModelPlanRequest, ModelPlan>;
  'agents.voice.preview': CommandContract<VoicePreviewRequest, VoicePreview>;
  'agents.knowledge.search': CommandContract<KnowledgeSearchCommand, KnowledgeSearchReply>;
  'agents.custom_function.invoke': CommandContract<CustomFunctionInvokeRequest, CustomFunctionInvokeReply>;
  'agents.connect.open': CommandContract<ConnectOpenRequest, ConnectOpenReply>;
  'agents.connect.submit_key': CommandContract<ConnectSubmitKeyRequest, ConnectFinishedReply>;
  'agents.connect.callback': CommandContract<ConnectCallbackRequest, ConnectFinishedReply>;

  'calls.callback.ingest': CommandContract<CarrierCallbackIngest, CarrierCallbackReply>;
  'calls.inbound_callback.ingest': CommandContract<CarrierCallbackIngest, CarrierCallbackReply>;
  'calls.message_callback.ingest': CommandContract<CarrierCallbackIngest, CarrierCallbackReply>;
  'calls.inbound_message.ingest': CommandContract<CarrierCallbackIngest, CarrierCallbackReply>;
  'calls.billing.unbilled': CommandContract<UnbilledChargesRequest, UnbilledChargesPage>;
  'calls.billing.acknowledge': CommandContract<AcknowledgeChargesRequest, AcknowledgeChargesReply>;
  'calls.voice.attach': CommandContract<VoiceAttachRequest, VoiceCallContext>;
  'calls.voice.transcript': CommandContract<VoiceTranscriptRequest, VoiceAck>;
  'calls.voice.transfer': CommandContract<VoiceTransferRequest, VoiceTransferReply>;
  'calls.voice.warm_transfer': CommandContract<VoiceWarmTransferRequest, VoiceWarmTransferReply>;
  'calls.voice.transfer_decision': CommandContract<VoiceTransferDecisionRequest, VoiceTransferDecisionReply>;
  'calls.voice.handoff': CommandContract<VoiceHandoffRequest, VoiceHandoffReply>;
  'calls.voice.opt_out': CommandContract<VoiceOptOutRequest, VoiceOptOutReply>;
  'calls.voice.send_dtmf': CommandContract<VoiceSendDtmfRequest, VoiceSendDtmfReply>;
  'calls.voice.send_sms': CommandContract<VoiceSendSmsRequest, VoiceSendSmsReply>;
  'calls.voice.hangup': CommandContract<VoiceHangupRequest, VoiceAck>;
  'calls.voice.ended': CommandContract<VoiceEndedRequest, VoiceAck>;
  'calls.voice.tool_call': CommandContract<VoiceToolCallRequest, VoiceAck>;
  'calls.voice.browser_refused': CommandContract<VoiceBrowserRefusedRequest, VoiceAck>;
}

/**
 * Commands answered only by whoever holds what their address names (AddressedSubjects): RpcClient.request
 * sends them with `{ address }`, AddressedCommandServer serves them; never a @Command handler.
 */
export interface AddressedCommands {
  'voice.session.end': CommandContract<VoiceSessionEndRequest, VoiceSessionEndReply>;
  'voice.session.answered_by': CommandContract<VoiceAnsweredByRequest, VoiceAnsweredByReply>;
  'voice.session.transfer_outcome': CommandContract<VoiceTransferOutcomeRequest, VoiceTransferOutcomeReply>;
  'voice.session.terminate': CommandContract<VoiceSessionTerminateRequest, VoiceSessionTerminateReply>;
}
export type AddressedSubject = keyof AddressedCommands & string;

/** Every service answers `<service>.health.ping` by itself (NatsRpcServer), for readiness checks. */
export type HealthPingSubject = `${ServiceName}.health.ping`;
export interface HealthPingReply {
  service: string;
  ok: true;
}

export type CommandMap = ServiceCommands &
  AddressedCommands & {
    [S in HealthPingSubject]: CommandContract<EmptyRequest, HealthPingReply>;
  };
export type CommandSubject = keyof CommandMap & string;
export type CommandRequest<S extends CommandSubject> = CommandMap[S]['request'];
export type CommandReply<S extends CommandSubject> = CommandMap[S]['reply'];

/** Every command subject Subjects names (health pings included), whether or not its types are here. */
export type NamedCommandSubject = {
  [K in ServiceName]: (typeof Subjects)[K][keyof (typeof Subjects)[K]];
}[ServiceName];
/** The same for the addressed commands. */
export type NamedAddressedSubject = {
  [K in keyof typeof AddressedSubjects]: (typeof AddressedSubjects)[K][keyof (typeof AddressedSubjects)[K]];
}[keyof typeof AddressedSubjects];

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
/** Compiles only while AddressedSubjects and AddressedCommands hold the same subjects. */
export type AddressedCommandsMatchSubjects = Assert<Same<NamedAddressedSubject, AddressedSubject>>;
