import type { CallAnalysis } from '../agents/analysis';
import type { CallSegment } from '../agents/handoffs';
import type { CallBillingRate } from './credits';
import type { AnsweringModelProvider, ModelPaidBy } from '../voice/model-plan';
import type {
  RecordedTurnLatency,
  ToolCallOutcome,
  TurnModelUsage,
  TurnProviders,
} from '../voice/voice-commands';
import {
  AnsweredBy,
  CallDirection,
  CallDisposition,
  CallProvider,
  CallStatus,
  HangupSource,
  TransferOutcome,
  TransferType,
} from './call-status';

/** The account's concurrency at the moment of a status change; limit and remaining are null when unlimited. */
export interface AccountConcurrency {
  limit: number | null;
  active: number;
  remaining: number | null;
}

/** data of call.status.updated (domain event events.call.status_updated): every field of the contract. */
export interface CallStatusUpdatedData {
  call_id: string;
  session_id: string | null;
  agent_id: string;
  agent_name: string | null;
  client_reference_id: string | null;
  direction: CallDirection;
  from_number: string;
  to_number: string;
  status: CallStatus;
  disposition: CallDisposition | null;
  answered_by: AnsweredBy | null;
  hangup_cause: string | null;
  hangup_source: HangupSource | null;
  previous_status: CallStatus | null;
  terminal: boolean;
  concurrency_released: boolean;
  account_concurrency: AccountConcurrency | null;
  provider: CallProvider | null;
  /** The carrier's raw status value. */
  provider_status: string | null;
  /** The carrier's raw event name (callback kind). */
  provider_event: string | null;
  occurred_at: string;
}

export interface TranscriptEntry {
  role: 'user' | 'bot';
  content: string;
  timestamp: string;
  /** Agent turns that answered the caller: how long each part of the reply took (see TurnLatency). */
  latency?: RecordedTurnLatency;
  /** Agent turns that answered the caller: the providers that served it (see TurnProviders). */
  providers?: TurnProviders;
  /**
   * Lines a model wrote: the tokens of that model's rounds since its last line (tool rounds too), as its provider
   * reported them; absent when it reported none.
   */
  usage?: TurnModelUsage;
  /** An agent line the caller cut short (barge-in) or hung up on; content is what was played. */
  interrupted?: true;
}

/**
 * A call's use of one model, as the call, session.completed and the ledger's charge carry it (the public,
 * snake_case form of ModelUsageEntry): summed from the transcript lines the model wrote.
 */
export interface CallModelUsage {
  provider: AnsweringModelProvider;
  model: string;
  /** Whose key answered: the account's own, the platform's, or null (the offline engine, the deployment default). */
  paid_by: ModelPaidBy | null;
  input_tokens: number;
  output_tokens: number;
  /** The agent lines it wrote. */
  replies: number;
}

/** One tool invocation of a call's conversation, as its session lists it (`tool_calls`). */
export interface ToolCallEntry {
  /** The model-facing name (a built-in tool's, or the partner function's). */
  name: string;
  /** As GET /agent/{id}/tools lists the tool: builtin, handoff (handoff_to_<name>) or custom. */
  kind: 'builtin' | 'handoff' | 'custom';
  /** The partner's function, for a custom one. */
  function_id: string | null;
  /** The model's arguments; {} when they were larger than the session keeps (arguments_truncated). */
  arguments: Record<string, unknown>;
  arguments_truncated: boolean;
  outcome: ToolCallOutcome;
  latency_ms: number;
  /** The integration log entry of the request to the partner, when one was sent. */
  log_id: string | null;
  /** When the invocation started. */
  timestamp: string;
  /** Call variables it set (a function's response_variables), merged into the call's variables. */
  variables: Record<string, unknown>;
}

export interface HoldEvent {
  kind: string;
  started_at: string;
  ended_at: string | null;
  duration_secs: number;
  recovered: boolean;
}

export interface HoldSummary {
  detected: boolean;
  events: HoldEvent[];
  total_secs: number;
  ended_on_hold: boolean;
  kinds: string[];
}

export const EXTRACTION_STATUSES = ['success', 'failed', 'skipped', 'pending'] as const;
export type ExtractionStatus = (typeof EXTRACTION_STATUSES)[number];

export interface ExtractionResult {
  status: ExtractionStatus;
  model: string | null;
  extractedAt: string | null;
  latencyMs: number | null;
  attempts: number;
  values: Record<string, unknown>;
  error: string | null;
}

/** Call metadata carried by session.completed (field `call`). */
export interface SessionCallMetadata {
  call_id: string;
  direction: CallDirection;
  from_number: string;
  to_number: string;
  provider: CallProvider | null;
  status: CallStatus;
  disposition: CallDisposition | null;
  answered_by: AnsweredBy | null;
  end_call_reason: string | null;
  hangup_cause: string | null;
  hangup_source: HangupSource | null;
  client_reference_id: string | null;
  started_at: string | null;
  ended_at: string | null;
}

/**
 * data of session.completed (domain event events.session.completed). The contract's fields, plus:
 * call_id, status (session status), recording_url (signed, valid 7 days; null when recording was off or
 * nothing was recorded), variables (pre-call variables, with what partner functions set during the call),
 * tool_calls (the conversation's tool invocations), extraction (null when extraction did not run), analysis
 * (summary and success evaluation; null when the call was not answered or started before analysis existed),
 * hold, call (call metadata), and credits_used_paise (the exact charge the gateway debits).
 * A terminal failure (no answer, busy, failed, canceled) has duration_seconds 0 and transcript null.
 */
export interface SessionCompletedData {
  session_id: string;
  call_id: string;
  agent_id: string;
  agent_name: string | null;
  status: string;
  duration_seconds: number;
  credits_used: number;
  credits_used_paise: number;
  processing_complete: boolean;
  pipeline_completed_at: string;
  transcript: TranscriptEntry[] | null;
  /** The tool invocations of the conversation, in order ([] when there were none). */
  tool_calls: ToolCallEntry[];
  /** The agents that held the call when it was handed off ([] when one agent held it throughout). */
  segments: CallSegment[];
  recording_url: string | null;
  variables: Record<string, unknown>;
  extraction: ExtractionResult | null;
  analysis: CallAnalysis | null;
  hold: HoldSummary;
  call: SessionCallMetadata;
  /** What the session ran on: a phone call, or a browser voice session (POST /browser-sessions). */
  source: 'phone' | 'browser';
  /** The browser session's id (its call_id), null for a phone call. */
  browser_session_id: string | null;
  /** The campaign that dialled the call; null otherwise (and for calls placed before it was kept). */
  campaign_id: string | null;
  /** The agent's project when the call started; null for calls placed before it was kept. */
  project_id: string | null;
  /** The seconds credits_used_paise was priced on (0 when the call was not answered). */
  bill_seconds: number;
  /**
   * What the seconds were priced at: standard (the account's price a minute: its rate card for a reseller's
   * client, else the platform's) or test (a test run's session, at the test price). Absent from events
   * written before it was carried.
   */
  billing_rate: CallBillingRate;
  /**
   * Cloud speech providers that served the call on the platform's keys, sorted ([]: offline engines or the
   * partner's own keys only; absent from events written before it was carried).
   */
  platform_speech_providers: string[];
  /**
   * The call's model use, per model that wrote a line ([] when none did; absent from events written before it
   * was carried).
   */
  model_usage: CallModelUsage[];
}

/** Which side of a transfer a leg is: the call's own leg (the caller), or the one that reaches the human. */
export const TRANSFER_LEG_ROLES = ['caller', 'human'] as const;
export type TransferLegRole = (typeof TRANSFER_LEG_ROLES)[number];

/**
 * A transfer leg's state: ringing, answered, bridged (joined to the other leg), carrier_dialed (a cold transfer's
 * human leg, dialed by the carrier on the call's leg: the carrier does not report it separately), no_answer, busy,
 * declined, failed, completed (hung up after it was answered).
 */
export const TRANSFER_LEG_STATUSES = [
  'ringing',
  'answered',
  'bridged',
  'carrier_dialed',
  'no_answer',
  'busy',
  'declined',
  'failed',
  'completed',
] as const;
export type TransferLegStatus = (typeof TRANSFER_LEG_STATUSES)[number];

/** One leg of a transfer, as the call and call.transferred carry it (times ISO 8601, null until they happen). */
export interface CallTransferLeg {
  role: TransferLegRole;
  /** The carrier's id of the leg (carrier_b CallSid, carrier_a CallUUID); null when the carrier named none. */
  carrier_call_id: string | null;
  from_number: string;
  to_number: string;
  status: TransferLegStatus;
  /** When the platform asked for this leg (the caller's: when the call was answered). */
  started_at: string | null;
  answered_at: string | null;
  ended_at: string | null;
}

/** A call's transfer to a human (the call's `transfer`, and the heart of call.transferred). */
export interface CallTransfer {
  transfer_type: TransferType;
  /** E.164 number the call was transferred to (the agent's transfer_number). */
  to_number: string;
  /** Why the agent transferred (the model's reason, else agent_transfer). */
  reason: string;
  /** null while the transfer is under way. */
  outcome: TransferOutcome | null;
  /** When the agent asked for the transfer. */
  requested_at: string;
  /** When the human's leg answered (null for a cold transfer: the carrier dials it on the call's leg). */
  answered_at: string | null;
  /** When the caller was handed over (cold: when the carrier took the call). */
  bridged_at: string | null;
  legs: CallTransferLeg[];
}

/**
 * data of call.transferred (domain event events.call.transferred): a live call was handed to a human
 * (cold transfer to the agent's transfer_number). The call then ends with disposition transferred.
 */
export interface CallTransferredData {
  call_id: string;
  session_id: string;
  agent_id: string;
  agent_name: string | null;
  client_reference_id: string | null;
  direction: CallDirection;
  from_number: string;
  to_number: string;
  /** E.164 number the call was transferred to. */
  transfer_to: string;
  transfer_type: TransferType;
  /** Why: callee_requested_human (the callee asked for a person). */
  reason: string;
  /** How the transfer ended (see TRANSFER_OUTCOMES). */
  outcome: TransferOutcome;
  requested_at: string;
  answered_at: string | null;
  bridged_at: string | null;
  legs: CallTransferLeg[];
  provider: CallProvider | null;
  occurred_at: string;
}
