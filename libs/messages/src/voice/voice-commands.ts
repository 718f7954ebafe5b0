import type { AnsweringModelProvider, ModelPaidBy, SpeechToSpeechProvider } from './model-plan';
import type { AnsweredBy, CallDirection, TransferOutcome } from '../calls/call-status';
import type { SttProviderName, TtsProviderName } from './speech-providers';
import type { ErrorDetail } from '../errors';
import type { AgentSnapshot } from './agent-snapshot';

/**
 * Carriers whose calls the voice service serves over a media stream (the sandbox phone speaks carrier_b's), and
 * `browser`: a browser session's stream (`/browser/<sessionId>`), whose upgrade headers carry its `origin`.
 */
export type VoiceCarrier = 'carrier_a' | 'carrier_b' | 'sandbox' | 'browser';

/**
 * calls.voice.attach: the voice service accepted a media-stream upgrade whose token it verified (signature,
 * expiry, bound call). The calls service checks the carrier's own signature on the upgrade with the
 * partner's stored credentials, claims the token's nonce (a token opens one stream, across every voice
 * replica) and the call's one media stream, and answers the call's context. 403 FORBIDDEN: bad carrier
 * signature; 409 CONFLICT: the token was used already, or (with the detail STREAM_TAKEN_DETAIL) the call has
 * opened its stream already; 404 NOT_FOUND: no such live (active) call.
 */
export interface VoiceAttachRequest {
  callId: string;
  carrier: VoiceCarrier;
  /** The token's nonce (single use). */
  nonce: string;
  /** The upgrade request's URL as the carrier was given it (what carrier signatures cover). */
  url: string;
  /** The upgrade request's headers, lower-case names. */
  headers: Record<string, string>;
  /**
   * The voice replica that serves the stream (its id in the VoiceReplicaHeartbeat bucket): when that replica's
   * heartbeat lapses, the calls service ends the call.
   */
  replicaId: string;
  /**
   * One id per upgrade, the same on each retry of its attach: a retry of an attach the calls service took but
   * whose answer was lost is answered again (not refused as a second use of the token). Absent from replicas
   * older than it.
   */
  attemptId?: string;
}

/**
 * The detail field of calls.voice.attach's 403 for a browser stream whose `origin` header is not one of the
 * session's allowed origins (the voice service refuses the upgrade with 403 `bad_origin`).
 */
export const BAD_ORIGIN_DETAIL_FIELD = 'origin';

/**
 * Why a browser session refused a connection attempt, as the session records it (`last_refusal.reason` of
 * GET /browser-sessions/{id}) and the page learns it (the close code's reason, BROWSER_REFUSAL_CLOSE):
 * - `token_expired`: the connect_url's token (or the pending session) outlived BROWSER_SESSION_TOKEN_TTL_MS;
 * - `token_used`: the token opened the session's one stream already;
 * - `origin_not_allowed`: the page's Origin is not one of the session's allowed_origins;
 * - `account_restricted`: the partner may not run sessions now (suspended, not approved);
 * - `capacity`: the voice replica serving the attempt had no room (MAX_LIVE_SESSIONS);
 * - `session_ended`: the session is over (completed, failed) and opens no stream any more.
 */
export const BROWSER_REFUSAL_REASONS = [
  'token_expired',
  'token_used',
  'origin_not_allowed',
  'account_restricted',
  'capacity',
  'session_ended',
] as const;
export type BrowserRefusalReason = (typeof BROWSER_REFUSAL_REASONS)[number];

/**
 * The detail field of calls.voice.attach's refusal of a browser stream that names the refusal's reason (its
 * message is a BrowserRefusalReason): the voice service closes the page's socket with its code.
 */
export const BROWSER_REFUSAL_DETAIL_FIELD = 'browser_refusal';

/** A refused browser connection's Origin is kept to this many characters (last_refusal.origin). */
export const BROWSER_REFUSAL_ORIGIN_MAX = 255;

/**
 * calls.voice.browser_refused: the voice service refused a browser stream before asking calls.voice.attach,
 * for a reason only it can tell (the token's signature held, so `sessionId` is the session the platform issued
 * the token for): the token expired, or the replica had no room. The calls service records it as the session's
 * last refusal (one row update; a session id that names no browser session changes nothing).
 */
export interface VoiceBrowserRefusedRequest {
  sessionId: string;
  reason: Extract<BrowserRefusalReason, 'token_expired' | 'capacity'>;
  /** The upgrade's Origin header, if any. */
  origin: string | null;
}

/** The detail of calls.voice.attach's 409 when the call's one media stream was opened already (by any token). */
export const STREAM_TAKEN_DETAIL: ErrorDetail = {
  field: 'media_stream',
  message: 'the call has opened its media stream already; a call has one',
};

export interface VoiceCallContext {
  callId: string;
  partnerId: string;
  agentId: string;
  sessionId: string;
  direction: CallDirection;
  fromNumber: string;
  toNumber: string;
  /** The provider the call runs on (sandbox, carrier_a, carrier_b). */
  provider: string;
  /** Pre-call variables, for {{name}} placeholders. */
  variables: Record<string, unknown>;
  /** The customer (sub-tenant) the call is for, when it names one (absent from older calls services). */
  customerId?: string | null;
  /** What the carrier's machine detection said, when it has said it by now. */
  answeredBy: AnsweredBy | null;
  agent: AgentSnapshot;
  /** A warm transfer's consult stream to the human (callId is then the consult's id), absent on a call's own. */
  consult?: ConsultContext;
}

/** The parts of one agent turn's latency, in milliseconds from the end of the caller's speech. */
export interface TurnLatency {
  /** The endpointing wait: from the end of the caller's speech to the moment their turn was judged over. */
  endpointing_ms: number;
  stt_final_ms: number;
  llm_first_token_ms: number;
  tts_first_byte_ms: number;
  first_frame_out_ms: number;
  voice_to_voice_ms: number;
}

/**
 * A turn's latency as a transcript line keeps it: lines recorded before the voice service measured the
 * endpointing wait (or sent by a replica older than that, during a rollout) have no endpointing_ms.
 */
export type RecordedTurnLatency = Omit<TurnLatency, 'endpointing_ms'> &
  Partial<Pick<TurnLatency, 'endpointing_ms'>>;

/**
 * Which of the configured providers served one agent line (the one a failing provider handed over to). `llm` is
 * null on a line the platform said itself (the intro, a reprompt): no model wrote it; `llm_model` names the
 * provider's model that wrote it. A line a speech-to-speech model wrote (it heard the caller and spoke itself)
 * names the model's provider as `stt` and `tts` too (SPEECH_TO_SPEECH_PROVIDERS: `openai`, `google`).
 */
export interface TurnProviders {
  stt: SttProviderName | SpeechToSpeechProvider;
  llm: AnsweringModelProvider | null;
  llm_model?: string | null;
  tts: TtsProviderName | SpeechToSpeechProvider;
}

/** Tokens a line's model rounds cost, as the provider reported them (snake_case: the line goes public as it is). */
export interface TurnModelUsage {
  input_tokens: number;
  output_tokens: number;
}

/** calls.voice.transcript: one line said on the call (an agent line cut by barge-in holds what was played). */
export interface VoiceTranscriptRequest {
  callId: string;
  role: 'user' | 'bot';
  content: string;
  /** When the line started, ms since the stream started (the call's media clock). */
  atMs: number;
  /** How long the call has run by its media clock, in seconds (for the live balance guard). */
  callSeconds: number;
  /** Agent turns that answered the caller carry their latency parts. */
  latency?: TurnLatency;
  /** Agent lines carry the providers that served them (the call's transcriber and the synthesizer that spoke). */
  providers?: TurnProviders;
  /**
   * Lines a model wrote: the tokens of that model's rounds since its last line (every round of the turn, tool
   * rounds too), as the provider reported them; absent when it reported none (the offline engine, some servers).
   */
  usage?: TurnModelUsage;
  /** The agent line was cut short by the caller (barge-in). */
  interrupted?: boolean;
  /**
   * The media stream the line was said on (an id the voice session makes up) and the line's place on it, from
   * 0: the voice service sends a stream's lines in order and retries one until it is acknowledged, and the
   * calls service records each (streamId, seq) once. A line without them is appended as it comes.
   */
  streamId?: string;
  seq?: number;
}

/** How one tool invocation of a call went (a custom function's outcomes, and the built-in tools' own). */
export const TOOL_CALL_OUTCOMES = [
  'success',
  /** A built-in tool that did not do what it was asked (a transfer the carrier refused, a search that failed). */
  'failed',
  /** The arguments broke the tool's schema: nothing was sent; the model was told what to fix. */
  'invalid_arguments',
  'http_error',
  'timeout',
  'refused',
  'not_found',
  /** A function authenticating with the customer's connection found none live: nothing was sent. */
  'not_connected',
  /** Beyond the calls allowed per turn or per call: not run, the model was told. */
  'limit_reached',
  /** The call ended (or the caller's turn was given up) before the answer came. */
  'cancelled',
] as const;
export type ToolCallOutcome = (typeof TOOL_CALL_OUTCOMES)[number];

/** Bytes of a tool call's arguments (as JSON) a session keeps; larger arguments are kept cut to a note. */
export const TOOL_CALL_MAX_ARGUMENT_BYTES = 4096;
/**
 * Bytes (as JSON) a call's variables may grow to through its functions' response_variables: an invocation whose
 * values would take them past it is recorded, its values not merged (the conversation does the same).
 */
export const CALL_VARIABLES_MAX_BYTES = 65_536;
/** Tool invocations a call's session keeps (custom ones are bounded lower by CUSTOM_FUNCTION_CALLS_PER_CALL). */
export const TOOL_CALLS_PER_CALL_MAX = 200;

/** One tool invocation on a call, as the voice service reports it. */
export interface VoiceToolCallRecord {
  /** The model-facing name. */
  name: string;
  /** As GET /agent/{id}/tools lists the tool: builtin, handoff (handoff_to_<name>) or custom. */
  kind: 'builtin' | 'handoff' | 'custom';
  /** The partner's function (custom tools). */
  functionId: string | null;
  /** The model's arguments (cut to TOOL_CALL_MAX_ARGUMENT_BYTES by the calls service). */
  arguments: unknown;
  outcome: ToolCallOutcome;
  /** Wall ms from the invocation to its answer. */
  latencyMs: number;
  /** The integration log entry of the partner request, when one was sent. */
  logId: string | null;
  /** When the invocation started, ms since the stream started (the call's media clock). */
  atMs: number;
  /** Call variables the invocation set (a custom function's response_variables), merged into the call's. */
  variables?: Record<string, unknown>;
}

/**
 * calls.voice.tool_call: one tool invocation, recorded on the call's session, its variables merged into the
 * call's. Numbered on the stream like transcript lines, so a retried report is recorded once.
 */
export interface VoiceToolCallRequest extends VoiceToolCallRecord {
  callId: string;
  streamId?: string;
  seq?: number;
}

/** calls.voice.transfer: cold transfer through the carrier; the calls service emits call.transferred. */
export interface VoiceTransferRequest {
  callId: string;
  to: string;
  reason: string;
}

/**
 * calls.voice.handoff: the agent now holding the call hands it to one of the agents its snapshot allows; the calls
 * service records the segment and answers the next agent's snapshot, taken now.
 */
export interface VoiceHandoffRequest {
  callId: string;
  /** The next agent: one of the current agent's handoffs. */
  agentId: string;
  /** Why, in the model's words (kept on the segment that ends). */
  reason: string;
}

export interface VoiceHandoffReply {
  agentId: string;
  agentName: string;
  agent: AgentSnapshot;
}

/** calls.voice.opt_out: the caller asked not to be called again; their number joins the do-not-call list. */
export interface VoiceOptOutRequest {
  callId: string;
}

export interface VoiceOptOutReply {
  /** The number now on the list (the callee of an outbound call, the caller of an inbound one). */
  number: string;
  /** The do-not-call entry covering it (new, or already there). */
  doNotCallId: string;
}

/**
 * calls.voice.send_dtmf: the agent's send_dtmf tool on a carrier that takes keys through its REST API (carrier_a);
 * the calls service sends them on the call's leg. `digits` matches SEND_DTMF_PATTERN.
 */
export interface VoiceSendDtmfRequest {
  callId: string;
  digits: string;
}

export interface VoiceSendDtmfReply {
  /** The carrier took the keys; false when the call has ended or its carrier takes no keys this way. */
  sent: boolean;
}

/**
 * calls.voice.send_sms: the agent's send_sms tool. The calls service checks the agent's SMS settings (the other
 * party of the call only, unless the agent allows any number), the per-call bound and the contact policy, then
 * queues the message like POST /messages. `to` null: the other party of the call.
 */
export interface VoiceSendSmsRequest {
  callId: string;
  to: string | null;
  body: string;
}

export interface VoiceSendSmsReply {
  /** Queued: the message's id (msg_...) and the number it goes to. */
  sent: boolean;
  messageId: string | null;
  to: string | null;
  /** Why nothing was sent, in words the model can relay (sent false). */
  reason: string | null;
}

/** calls.voice.hangup: the conversation is over; the calls service hangs up through the carrier. */
export interface VoiceHangupRequest {
  callId: string;
  /** Becomes the call's end_call_reason, e.g. agent_ended_call, max_call_duration_reached, stt_provider_failed. */
  reason: string;
}

/** calls.voice.ended: the media stream closed; what the voice service knows about the conversation. */
export interface VoiceEndedRequest {
  callId: string;
  /** Null when the carrier ended the stream (the caller hung up) without the agent deciding anything. */
  endCallReason: string | null;
  /** Seconds of media the stream carried. */
  mediaSeconds: number;
  /** Two-channel WAV (caller left, agent right) in blob storage, when the agent records. */
  recording: { storageKey: string; durationSeconds: number } | null;
  /**
   * Cloud speech providers that served the call on the platform's keys (none: offline engines or the partner's
   * own keys only). Absent from replicas older than per-account keys.
   */
  platformPaidSpeech?: string[];
  /**
   * Who paid for each model that wrote a line of the call on this stream (its ModelUsageEntry's provider, model
   * and paidBy): the calls service sums the tokens from the lines and takes whose key it was from here. Absent
   * from replicas older than per-agent models.
   */
  modelPaidBy?: ModelPaidByEntry[];
}

/** Whose key answered for one model of a call (null: the offline engine or the deployment's default model). */
export interface ModelPaidByEntry {
  provider: AnsweringModelProvider;
  model: string;
  paidBy: ModelPaidBy | null;
}

/**
 * voice.session.end, addressed to the call id: the calls service asks the voice replica holding the call's
 * media session to end the call with the agent's farewell, then hang up through calls.voice.hangup with
 * `reason`. Only that replica answers; no responder means no replica holds the call's session.
 */
export interface VoiceSessionEndRequest {
  callId: string;
  /** Becomes the call's end_call_reason, e.g. insufficient_balance. */
  reason: string;
}

export interface VoiceSessionEndReply {
  /** False when the session was already ending by itself (its own hang-up is on its way). */
  accepted: boolean;
}

/**
 * voice.session.terminate, addressed to the call id: the call has reached a terminal status (the carrier's
 * final status, a cancel, the stale sweeper, any end). The replica holding its media session stops it at
 * once: no farewell and no hang-up (the call is over), every provider request aborted and every timer
 * stopped, no further audio or transcript line, the socket closed, and calls.voice.ended reported. No
 * responder means no replica holds the call's session.
 */
export interface VoiceSessionTerminateRequest {
  callId: string;
}

export interface VoiceSessionTerminateReply {
  /** False when the session had already finished its conversation (it is only reporting). */
  terminated: boolean;
}

/**
 * voice.session.answered_by, addressed to the call id: the carrier's machine detection answered after the
 * call's media stream opened. The replica holding the session acts as if it had known at the start: for an
 * agent with voicemail detection and a machine answer, the current turn stops, the voicemail message is
 * said and the call hangs up with voicemail_detected. Anything else changes nothing.
 */
export interface VoiceAnsweredByRequest {
  callId: string;
  answeredBy: AnsweredBy;
}

export interface VoiceAnsweredByReply {
  /** True when the session leaves the voicemail message and hangs up because of this answer. */
  acted: boolean;
}

export interface VoiceAck {
  ok: true;
}

export interface VoiceTransferReply {
  /** False when the call had ended or the carrier refused. */
  transferred: boolean;
}

/**
 * calls.voice.warm_transfer: the agent transfers warm. The calls service dials `to` (the agent's transfer_number)
 * as a second leg whose answer streams to the media plane (a consult stream: its context carries `consult`), where
 * the agent speaks `briefing` to the human only; the outcome comes back as voice.session.transfer_outcome.
 */
export interface VoiceWarmTransferRequest {
  callId: string;
  to: string;
  reason: string;
  /** What the human hears before the caller is bridged, at most TRANSFER_BRIEFING_MAX characters. */
  briefing: string;
}

export const TRANSFER_BRIEFING_MAX = 2000;

export interface VoiceWarmTransferReply {
  /** True when the human's leg is being dialed; false when the call had ended or the carrier refused. */
  started: boolean;
}

/**
 * calls.voice.transfer_decision: the human on a consult stream accepted (bridge) or declined the caller; or the
 * caller's session withdraws a transfer it stopped waiting for (`callId`, accepted false).
 */
export interface VoiceTransferDecisionRequest {
  /** The consult stream's id (VoiceCallContext.callId of that stream). */
  consultId?: string;
  /** The call whose transfer the caller's session withdraws. */
  callId?: string;
  accepted: boolean;
}

export interface VoiceTransferDecisionReply {
  /** What the transfer came to: bridged, declined, or an outcome decided before (no_answer, failed). */
  outcome: TransferOutcome | null;
}

/** voice.session.transfer_outcome: how the call's warm transfer ended (bridged: the carrier has the caller). */
export interface VoiceTransferOutcomeRequest {
  callId: string;
  outcome: TransferOutcome;
}

export interface VoiceTransferOutcomeReply {
  /** True when the session acted on it (a transfer of its own was waiting for it). */
  accepted: boolean;
}

/** A consult stream's purpose: brief the human of the call's warm transfer and hear whether they take it. */
export interface ConsultContext {
  /** The call being transferred. */
  callId: string;
  briefing: string;
}
