import { CallAnalysisDto } from '../agents/analysis.dto';
import { CallSegmentDto } from '../agents/handoff.dto';
import { PostCallHookResultDto } from '../lifecycle-hooks/lifecycle-hook.dto';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ANSWERED_BY_VALUES,
  AnsweredBy,
  CALL_DIRECTIONS,
  CALL_DISPOSITIONS,
  CALL_PROVIDERS,
  CALL_STATUSES,
  CallDirection,
  CallDisposition,
  CallProvider,
  CallStatus,
  EXTRACTION_STATUSES,
  ExtractionStatus,
  HANGUP_SOURCES,
  HangupSource,
  ANSWERING_MODEL_PROVIDERS,
  ModelPaidBy,
  AnsweringModelProvider,
  SPEECH_PROVIDERS,
  SpeechProviderName,
  SPEECH_TO_SPEECH_PROVIDERS,
  SpeechToSpeechProvider,
  STT_PROVIDERS,
  SttProviderName,
  TOOL_CALL_OUTCOMES,
  ToolCallOutcome,
  TRANSFER_LEG_ROLES,
  TRANSFER_LEG_STATUSES,
  TRANSFER_OUTCOMES,
  TRANSFER_TYPES,
  TransferLegRole,
  TransferLegStatus,
  TransferOutcome,
  TransferType,
  TTS_PROVIDERS,
  TtsProviderName,
} from '@vap/messages';

/** Milliseconds from the end of the caller's speech to each step of the agent's spoken answer. */
export class TurnLatencyDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    description:
      "The endpointing wait: from the end of the caller's speech to the moment their turn was judged over " +
      '(absent on turns recorded before the platform measured it)',
  })
  endpointing_ms?: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: "The caller's words transcribed (final result)" })
  stt_final_ms: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: "The language model's first token of the reply" })
  llm_first_token_ms: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: "The speech synthesizer's first audio byte" })
  tts_first_byte_ms: number;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'The first 20 ms frame of the reply sent to the carrier',
  })
  first_frame_out_ms: number;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: "Voice to voice: the end of the caller's speech to the agent's first audio on the line",
  })
  voice_to_voice_ms: number;
}

/** Which of the configured providers served an agent line: a provider that failed mid-call hands over to the next. */
export class TurnProvidersDto {
  @ApiProperty({
    enum: [...new Set([...STT_PROVIDERS, ...SPEECH_TO_SPEECH_PROVIDERS])],
    description:
      "The speech-to-text provider transcribing the caller's words (the one that heard the turn answered); on a " +
      'line a speech-to-speech model wrote, its provider (`openai`, `google`): the model heard the caller itself',
  })
  stt: SttProviderName | SpeechToSpeechProvider;

  @ApiProperty({
    enum: ANSWERING_MODEL_PROVIDERS,
    nullable: true,
    description:
      "The provider of the model that wrote the reply (the agent's model or the fallback it handed over to; " +
      "`platform`: the deployment's default model; `offline`: the offline engine); null on a line the platform " +
      "says itself (the intro_message, a reprompt, a function's on_start message), which no model wrote",
  })
  llm: AnsweringModelProvider | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'claude-haiku-4-5',
    description:
      "The provider's model that wrote the reply (Azure OpenAI: the deployment); null when llm is null. Absent on " +
      'lines recorded before it was kept',
  })
  llm_model?: string | null;

  @ApiProperty({
    enum: [...new Set([...TTS_PROVIDERS, ...SPEECH_TO_SPEECH_PROVIDERS])],
    description:
      'The speech synthesizer that spoke the line; on a line a speech-to-speech model wrote, its provider ' +
      '(`openai`, `google`): the model spoke itself',
  })
  tts: TtsProviderName | SpeechToSpeechProvider;
}

/** Tokens the model rounds behind an agent line took, as the model's provider reported them. */
export class TurnModelUsageDto {
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    example: 812,
    description: 'Input (prompt) tokens of the rounds, summed',
  })
  input_tokens: number;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    example: 37,
    description: 'Output (completion) tokens of the rounds, summed',
  })
  output_tokens: number;
}

/** A call's use of one model: the tokens of the lines it wrote, and whose key answered. */
export class ModelUsageDto {
  @ApiProperty({
    enum: ANSWERING_MODEL_PROVIDERS,
    example: 'anthropic',
    description:
      "The model's provider, as the transcript lines name it (`platform`: the deployment's default model; " +
      '`offline`: the offline engine; `custom`: the account’s own model server)',
  })
  provider: AnsweringModelProvider;

  @ApiProperty({
    example: 'claude-haiku-4-5',
    description: "The provider's model id (Azure OpenAI: the deployment)",
  })
  model: string;

  @ApiProperty({
    enum: ['account', 'platform'],
    nullable: true,
    description:
      "Whose key answered: `account` (the account's own key, POST /provider-credentials, or its model server), " +
      "`platform` (the platform's key for the account's tier: within the minute price, never charged apart), or " +
      'null (the offline engine, the deployment’s default model, or not yet known while the call is live)',
  })
  paid_by: ModelPaidBy | null;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description:
      'Input tokens of every round of the model on the call (tool rounds included), as its provider reported them',
  })
  input_tokens: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Output tokens, likewise' })
  output_tokens: number;

  @ApiProperty({ type: 'integer', minimum: 1, description: 'The agent lines it wrote' })
  replies: number;
}

export class TranscriptEntryDto {
  @ApiProperty({ enum: ['user', 'bot'] })
  role: 'user' | 'bot';

  @ApiProperty()
  content: string;

  @ApiProperty({ format: 'date-time', description: 'When the line started being said' })
  timestamp: string;

  @ApiPropertyOptional({
    type: TurnLatencyDto,
    description:
      'Present on agent (bot) turns that answered the caller: how long each part of the reply took',
  })
  latency?: TurnLatencyDto;

  @ApiPropertyOptional({
    type: TurnProvidersDto,
    description:
      'Present on agent (bot) lines, the intro included: which speech-to-text, language model and speech ' +
      'synthesizer served the line (after any fallback from a provider that failed during the call)',
  })
  providers?: TurnProvidersDto;

  @ApiPropertyOptional({
    type: TurnModelUsageDto,
    description:
      'Present on agent (bot) lines a model wrote whose provider reported token counts: the tokens of that ' +
      "model's rounds since its previous line (the turn's tool rounds too). Absent when the provider reported " +
      'none (the offline engine, some servers) and on lines recorded before it was kept',
  })
  usage?: TurnModelUsageDto;

  @ApiPropertyOptional({
    enum: [true],
    description:
      'Present (true) on agent (bot) lines the caller cut short by talking over the agent or hanging up; ' +
      'content is then what the caller actually heard',
  })
  interrupted?: true;
}

/** One tool the agent's model called during the conversation: a built-in tool or one of the partner's functions. */
export class ToolCallDto {
  @ApiProperty({ example: 'check_order', description: 'The tool’s name as the model called it' })
  name: string;

  @ApiProperty({
    enum: ['builtin', 'handoff', 'custom'],
    description:
      'As GET /agent/{id}/tools lists the tool. builtin: end_call, transfer_call, search_knowledge_base, ' +
      'opt_out, send_dtmf, send_sms; handoff: a handoff_to_<name> (the call handed to another agent); ' +
      'custom: a partner function',
  })
  kind: 'builtin' | 'handoff' | 'custom';

  @ApiProperty({ type: String, nullable: true, description: 'The partner function’s id (custom tools)' })
  function_id: string | null;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The model’s arguments; {} when they were larger than 4096 bytes (arguments_truncated)',
  })
  arguments: Record<string, unknown>;

  @ApiProperty({ description: 'The arguments were too large to keep' })
  arguments_truncated: boolean;

  @ApiProperty({
    enum: TOOL_CALL_OUTCOMES,
    description:
      'success; failed (a built-in tool that did not do it: a refused transfer, a failed search); ' +
      'invalid_arguments (they broke the function’s schema, nothing was sent); http_error (the partner ' +
      'answered non-2xx); timeout; refused (a private or unreachable address); not_found (the function was ' +
      'deleted); not_connected (the function authenticates with the call’s customer’s connection and there was ' +
      'none live: no customer, never connected, revoked; nothing was sent); limit_reached (beyond the calls allowed per turn or per call, not run); cancelled (the call ' +
      'ended before the answer came)',
  })
  outcome: ToolCallOutcome;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'From the call to its answer' })
  latency_ms: number;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The integration log entry of the request to the partner, when one was sent',
  })
  log_id: string | null;

  @ApiProperty({
    format: 'date-time',
    description:
      'When the model called the tool (not when it finished: a transfer rings, a handoff says goodbye)',
  })
  timestamp: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'Call variables it set (the function’s response_variables that matched), merged into the session’s variables',
  })
  variables: Record<string, unknown>;
}

export class ExtractionResultDto {
  @ApiProperty({
    enum: EXTRACTION_STATUSES,
    description: 'success, failed (see error), skipped (no keys or extraction disabled), pending',
  })
  status: ExtractionStatus;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The model that extracted (offline-rules-v1 without an LLM server)',
  })
  model: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  extractedAt: string | null;

  @ApiProperty({ type: Number, nullable: true })
  latencyMs: number | null;

  @ApiProperty()
  attempts: number;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'One value per key of the agent’s effective schema; null when the call did not say',
  })
  values: Record<string, unknown>;

  @ApiProperty({ type: String, nullable: true })
  error: string | null;
}

export class HoldEventDto {
  @ApiProperty({ example: 'carrier_hold' })
  kind: string;

  @ApiProperty({ format: 'date-time' })
  started_at: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  ended_at: string | null;

  @ApiProperty()
  duration_secs: number;

  @ApiProperty({ description: 'The call came back from hold before it ended' })
  recovered: boolean;
}

export class HoldSummaryDto {
  @ApiProperty()
  detected: boolean;

  @ApiProperty({ type: [HoldEventDto] })
  events: HoldEventDto[];

  @ApiProperty()
  total_secs: number;

  @ApiProperty()
  ended_on_hold: boolean;

  @ApiProperty({ type: [String] })
  kinds: string[];
}

export class CallSessionDto {
  @ApiProperty({ format: 'uuid' })
  session_id: string;

  @ApiProperty({
    enum: ['active', 'processing', 'completed', 'failed'],
    description: 'active during the call, processing until post-call processing finished',
  })
  status: string;

  @ApiProperty()
  duration_seconds: number;

  @ApiProperty({
    description:
      'Charge in INR: per-second billing at the account’s price a minute (a reseller’s client’s rate card, else the platform’s; a test run’s session at the test rate)',
  })
  credits_used: number;

  @ApiProperty()
  processing_complete: boolean;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  pipeline_completed_at: string | null;

  @ApiProperty({
    type: [TranscriptEntryDto],
    nullable: true,
    description: 'null for a call that was never answered',
  })
  transcript: TranscriptEntryDto[] | null;

  @ApiPropertyOptional({
    description:
      'Signed download URL of the WAV recording, valid 7 days; present only when recording was enabled',
  })
  recording_url?: string;

  @ApiProperty({
    type: [ToolCallDto],
    description: 'The tools the agent called during the conversation, in order (at most 200)',
  })
  tool_calls: ToolCallDto[];

  @ApiProperty({
    type: [CallSegmentDto],
    description:
      'The agents that held the call, in order, when it was handed from one agent to another (the agent’s ' +
      'handoffs); [] for a call one agent held throughout',
  })
  segments: CallSegmentDto[];

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'The pre-call variables, with the values partner functions set during the call (response_variables)',
  })
  variables: Record<string, unknown>;

  @ApiProperty({
    type: ExtractionResultDto,
    nullable: true,
    description: 'null until post-call processing ran',
  })
  extraction: ExtractionResultDto | null;

  @ApiProperty({
    type: CallAnalysisDto,
    nullable: true,
    description:
      'Post-call analysis (summary and success evaluation, per the agent’s analysis_config); null until post-call ' +
      'processing ran, for a call not answered, and for calls placed before analysis existed',
  })
  analysis: CallAnalysisDto | null;

  @ApiProperty({ type: HoldSummaryDto })
  hold: HoldSummaryDto;

  @ApiProperty({
    type: PostCallHookResultDto,
    nullable: true,
    description: 'The post-call hook’s run for this session; null when no post-call hook applied to the call',
  })
  post_call_hook: PostCallHookResultDto | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  started_at: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  ended_at: string | null;
}

export const CARRIER_RECONCILIATIONS = ['pending', 'verified', 'unreconciled'] as const;
export type CarrierReconciliation = (typeof CARRIER_RECONCILIATIONS)[number];

export class CallTransferLegDto {
  @ApiProperty({
    enum: TRANSFER_LEG_ROLES,
    description: "caller: the call's own leg; human: the leg that reaches the transfer number",
  })
  role: TransferLegRole;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'CA0123456789abcdef0123456789abcdef',
    description:
      "The carrier's id of the leg (carrier_b CallSid, carrier_a CallUUID); null when the carrier names none " +
      "(a cold transfer's human leg is dialed by the carrier on the caller's leg)",
  })
  carrier_call_id: string | null;

  @ApiProperty({ example: '+14155550100' })
  from_number: string;

  @ApiProperty({ example: '+919811112222' })
  to_number: string;

  @ApiProperty({
    enum: TRANSFER_LEG_STATUSES,
    description:
      'ringing, answered, bridged (joined to the other leg), carrier_dialed (a cold transfer hands the number to ' +
      'the carrier, which does not report that leg separately), no_answer, busy, declined, failed, completed',
  })
  status: TransferLegStatus;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: "When the leg was asked for (the caller's: when the call was answered)",
  })
  started_at: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  answered_at: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  ended_at: string | null;
}

export class CallTransferDto {
  @ApiProperty({
    enum: TRANSFER_TYPES,
    description:
      "cold: the carrier dials the transfer number on the call's own leg and the agent leaves the call; warm: the " +
      'platform dialed the human as a second leg, the agent briefed them, and the legs were bridged in a conference',
  })
  transfer_type: TransferType;

  @ApiProperty({ example: '+919811112222', description: "The agent's transfer_number" })
  to_number: string;

  @ApiProperty({ example: 'agent_transfer', description: "The agent's reason (else agent_transfer)" })
  reason: string;

  @ApiProperty({
    enum: TRANSFER_OUTCOMES,
    nullable: true,
    description:
      'bridged (the caller was handed over; cold: the carrier took the call to dial the number), no_answer (no ' +
      'answer or busy), declined (the human said no, or hung up first), failed (refused, given up, or the caller ' +
      'hung up on hold); null while the transfer is under way',
  })
  outcome: TransferOutcome | null;

  @ApiProperty({ format: 'date-time', description: 'When the agent asked for the transfer' })
  requested_at: string;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: "When the human's leg answered (null for a cold transfer: the carrier does not report it)",
  })
  answered_at: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the caller was handed over (cold: when the carrier took the call)',
  })
  bridged_at: string | null;

  @ApiProperty({ type: [CallTransferLegDto], description: "The caller's leg first, then the human's" })
  legs: CallTransferLegDto[];
}

export class CallDto {
  @ApiProperty({ format: 'uuid' })
  call_id: string;

  @ApiProperty({ format: 'uuid' })
  agent_id: string;

  @ApiProperty({ format: 'uuid' })
  session_id: string;

  @ApiProperty({ enum: CALL_DIRECTIONS })
  direction: CallDirection;

  @ApiProperty()
  from_number: string;

  @ApiProperty()
  to_number: string;

  @ApiProperty({ enum: CALL_STATUSES })
  status: CallStatus;

  @ApiProperty({ enum: CALL_DISPOSITIONS, nullable: true, description: 'Set when the call ended' })
  disposition: CallDisposition | null;

  @ApiProperty({ enum: ANSWERED_BY_VALUES, nullable: true })
  answered_by: AnsweredBy | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'agent_ended_call, callee_hung_up, max_call_duration_reached, transferred, transfer_not_connected (a warm transfer the human did not take, without handback), voicemail_detected, user_idle_timeout, opted_out (the person asked not to be called again: the number joined the do-not-call list), insufficient_balance, voice_replica_lost (the media server carrying the call stopped: it was hung up and billed for the time it was answered)' +
      '; media_stream_silent, media_stream_unresponsive, media_stream_protocol_error (the platform cut the call’s media stream and hung up: nothing arrived on it for a while, the carrier stopped answering pings or reading the audio, or it sent frames the protocol does not allow)',
  })
  end_call_reason: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The carrier’s cause, e.g. NORMAL_CLEARING, USER_BUSY, NO_ANSWER',
  })
  hangup_cause: string | null;

  @ApiProperty({
    enum: HANGUP_SOURCES,
    nullable: true,
    description:
      'Who hung up: caller or callee; system when the platform ended the call (its agent, a cap, the balance, a lost media server), also when it did so through the carrier’s API; api when the carrier’s API was used by someone else (a partner’s own request to its carrier); carrier, error or unknown as the carrier reports',
  })
  hangup_source: HangupSource | null;

  @ApiProperty({ type: Number, nullable: true })
  bill_duration_seconds: number | null;

  @ApiProperty({ type: Number, nullable: true })
  duration_seconds: number | null;

  @ApiProperty({
    enum: CARRIER_RECONCILIATIONS,
    nullable: true,
    description:
      "How the call's end was checked with the carrier's own record before it was billed and its slot released: " +
      "pending (a final callback waits for the carrier to confirm it), verified (billed the carrier's recorded " +
      'duration), unreconciled (the carrier could not be asked: ended on its callback, billed at least the ' +
      'answered time the platform saw, flagged for review). null: no check needed (sandbox) or none made.',
  })
  carrier_reconciliation: CarrierReconciliation | null;

  @ApiProperty({ enum: CALL_PROVIDERS })
  provider: CallProvider;

  @ApiProperty({ format: 'uuid' })
  connection_id: string;

  @ApiProperty({ type: String, nullable: true })
  error_message: string | null;

  @ApiProperty({ type: String, nullable: true })
  client_reference_id: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'cus_3f0c6a0e-6d0b-4a8e-9a55-0d7f4c1f2b11',
    description: 'The customer (sub-tenant) the call is for, as POST /calls/start named it; null: none',
  })
  customer_id: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the call was answered',
  })
  started_at: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  ended_at: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({
    type: [String],
    enum: SPEECH_PROVIDERS,
    example: ['elevenlabs'],
    description:
      "Cloud speech providers (recognition or synthesis) that served the call on the platform's keys rather " +
      "than the account's own (POST /provider-credentials), in name order. Known once the call's audio stream " +
      'has ended; empty when the call ran on offline engines or on the account’s keys only. A charge that ' +
      'names any of them counts its minutes in GET /billing/usage platform_speech_minutes.',
  })
  platform_speech_providers: SpeechProviderName[];

  @ApiProperty({
    type: [ModelUsageDto],
    description:
      "The call's model use, per model that wrote its lines, in the order each first did: the tokens summed from " +
      "the transcript lines' usage, the lines it wrote, and whose key answered. [] when no model wrote a line. " +
      "Model use on the platform's keys is within the minute price: the charge is the minutes (docs/billing.md, " +
      'Models); GET /billing/usage sums the tokens.',
  })
  model_usage: ModelUsageDto[];

  @ApiProperty({
    type: CallTransferDto,
    nullable: true,
    description:
      "The call's transfer to a human (the agent's transfer_call), with its legs; null: not transferred",
  })
  transfer: CallTransferDto | null;

  @ApiProperty({ type: CallSessionDto })
  session: CallSessionDto;
}

export class CallListDto {
  @ApiProperty({ type: [CallDto], description: 'Newest first' })
  calls: CallDto[];

  @ApiProperty({ type: String, nullable: true })
  next_cursor: string | null;
}

export class RecordingUrlDto {
  @ApiProperty({ format: 'uuid' })
  call_id: string;

  @ApiProperty({ description: 'Signed download URL of the WAV recording' })
  recording_url: string;

  @ApiProperty({ format: 'date-time' })
  expires_at: string;
}
