import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsDefined,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { ExtractionConfigDto, ExtractionConfigInputDto } from '../extraction/extraction-key.dto';
import { E164_PATTERN, IfPresent, trimString } from '../validation';
import { IsDistinct, IsSpokenLanguages, NullableText, OptionalFlag } from './agent-field.decorators';
import {
  AGENT_STATUSES,
  AGENT_TYPES,
  AgentDefaults,
  AgentLimits,
  AgentStatus,
  AgentType,
  HANDOFF_LIMITS,
  KB_THRESHOLDS,
  KbThreshold,
  MAX_AGENT_DICTIONARIES,
  MAX_FALLBACK_MODELS,
  MAX_FALLBACK_VOICES,
  SMS_RECIPIENT_RULES,
  SmsRecipientRule,
  SPOKEN_LANGUAGES,
  SpokenLanguage,
  TRANSFER_MODES,
  TransferMode,
  TurnTakingDefaults,
  VOICE_GENDERS,
  VoiceGender,
} from '@vap/messages';
import { VoiceSummaryDto } from '../voices/agent-voice.dto';
import { ToolAckConfigDto, ToolAckConfigInputDto } from './tool-ack-config.dto';
import { TURN_TAKING_DESCRIPTION, TurnTakingDto, TurnTakingInputDto } from './turn-taking.dto';
import {
  DTMF_DESCRIPTION,
  DtmfDto,
  DtmfInputDto,
  SEND_DTMF_DESCRIPTION,
  SMS_ENABLED_DESCRIPTION,
  SMS_RECIPIENTS_DESCRIPTION,
} from './dtmf.dto';
import { ANALYSIS_DESCRIPTION, AnalysisConfigDto, AnalysisConfigInputDto } from './analysis.dto';
import { HANDOFFS_DESCRIPTION, HandoffDto, HandoffInputDto } from './handoff.dto';
import { AGENT_TOOLS_DESCRIPTION, AGENT_TOOLS_MAX, IsAgentToolNames } from './agent-tools.dto';
import { TranscriberDto, TranscriberInputDto } from './transcriber.dto';
import {
  AgentModelDto,
  AgentModelInputDto,
  FALLBACK_MODELS_DESCRIPTION,
  MODEL_DESCRIPTION,
} from './agent-model.dto';
import { NextCursor } from '../pagination';

/** transfer_mode, as the agent's fields describe it. */
export const TRANSFER_MODE_DESCRIPTION =
  "How transfer_call hands the call to transfer_number: cold (the carrier dials the number on the caller's leg " +
  'and the agent leaves), warm (the caller hears hold audio while the agent calls the human, briefs them and ' +
  'connects the caller once they accept; if the human does not answer or declines, the agent tells the caller and ' +
  'says goodbye), warm_handback (as warm, but when the human does not answer or declines the agent tells the ' +
  'caller and carries on with them)';

/** A knowledge-base document linked to the agent. */
export class AgentDocumentDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ example: 'pdf' })
  type: string;

  @ApiProperty({ example: 'ready' })
  status: string;
}

/** An extraction set attached to the agent. */
export class AttachedExtractionSetDto {
  @ApiProperty({ example: 'exs_0b7f3c52-8f0e-4d57-9a51-6a1f0e2b7c11' })
  id: string;

  @ApiProperty()
  name: string;
}

/** A custom function attached to the agent. */
export class AttachedCustomFunctionDto {
  @ApiProperty({ example: 'fn_0b7f3c52-8f0e-4d57-9a51-6a1f0e2b7c11' })
  id: string;

  @ApiProperty({ example: 'check_order_status' })
  name: string;
}

/** The agent record: every field with its effective value (defaults applied). */
export class AgentDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  agent_name: string;

  @ApiProperty()
  prompt: string;

  @ApiProperty({ enum: AGENT_TYPES })
  agent_type: AgentType;

  @ApiProperty({ enum: AGENT_STATUSES, description: 'Deleted agents are not returned at all (404)' })
  status: AgentStatus;

  @ApiProperty({
    format: 'uuid',
    description: 'The project; the account’s default project when none was given',
  })
  project_id: string;

  @ApiProperty({ format: 'uuid' })
  voice_id: string;

  @ApiProperty({ enum: VOICE_GENDERS, description: 'Taken from the voice' })
  gender: VoiceGender;

  @ApiProperty({ type: VoiceSummaryDto })
  voice: VoiceSummaryDto;

  @ApiProperty({
    type: [String],
    enum: SPOKEN_LANGUAGES,
    description: 'Effective languages: [en] when none were set',
  })
  spoken_languages: SpokenLanguage[];

  @ApiProperty({ type: String, nullable: true })
  intro_message: string | null;

  @ApiProperty()
  voicemail_detection_enabled: boolean;

  @ApiProperty()
  screener_handling_enabled: boolean;

  @ApiProperty({ type: String, nullable: true })
  voicemail_message: string | null;

  @ApiProperty()
  enable_recording: boolean;

  @ApiProperty({ enum: KB_THRESHOLDS, nullable: true, description: 'null = no relevance cut-off' })
  kb_threshold: KbThreshold | null;

  @ApiProperty()
  kb_include_summaries: boolean;

  @ApiProperty({ type: String, nullable: true })
  kb_result_format: string | null;

  @ApiProperty()
  kb_enable_llm_processing: boolean;

  @ApiProperty({ type: String, nullable: true })
  kb_llm_system_prompt: string | null;

  @ApiProperty()
  end_call_enabled: boolean;

  @ApiProperty({ type: String, nullable: true, description: 'null = platform default' })
  end_call_message: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'null = section skipped' })
  end_call_instructions: string | null;

  @ApiProperty()
  transfer_enabled: boolean;

  @ApiProperty({ type: String, nullable: true })
  transfer_number: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'null = platform default' })
  transfer_message: string | null;

  @ApiProperty({ type: String, nullable: true })
  transfer_instructions: string | null;

  @ApiProperty({ enum: TRANSFER_MODES, description: TRANSFER_MODE_DESCRIPTION })
  transfer_mode: TransferMode;

  @ApiProperty({ type: String, nullable: true, description: "null = the platform's briefing" })
  transfer_briefing_instructions: string | null;

  @ApiProperty({ minimum: AgentLimits.transferRingTimeoutMin, maximum: AgentLimits.transferRingTimeoutMax })
  transfer_ring_timeout_secs: number;

  @ApiProperty()
  user_idle_enabled: boolean;

  @ApiProperty({ type: ToolAckConfigDto, nullable: true, description: 'null = acknowledgements off' })
  tool_ack_config: ToolAckConfigDto | null;

  @ApiProperty({ type: TurnTakingDto, description: TURN_TAKING_DESCRIPTION })
  turn_taking: TurnTakingDto;

  @ApiProperty({ type: DtmfDto, description: DTMF_DESCRIPTION })
  dtmf: DtmfDto;

  @ApiProperty({ description: SEND_DTMF_DESCRIPTION })
  send_dtmf_enabled: boolean;

  @ApiProperty({ type: [String], nullable: true, description: AGENT_TOOLS_DESCRIPTION })
  tools: string[] | null;
  @ApiProperty({ description: SMS_ENABLED_DESCRIPTION })
  sms_enabled: boolean;

  @ApiProperty({ enum: SMS_RECIPIENT_RULES, description: SMS_RECIPIENTS_DESCRIPTION })
  sms_allowed_recipients: SmsRecipientRule;

  @ApiProperty()
  extraction_enabled: boolean;

  @ApiProperty({ type: AnalysisConfigDto, description: ANALYSIS_DESCRIPTION })
  analysis_config: AnalysisConfigDto;

  @ApiProperty({ type: [HandoffDto], description: HANDOFFS_DESCRIPTION })
  handoffs: HandoffDto[];

  @ApiProperty({
    type: ExtractionConfigDto,
    description: 'Inline extraction keys; keys of attached sets are in extraction_sets',
  })
  extraction_config: ExtractionConfigDto;

  @ApiProperty({ type: [AttachedExtractionSetDto] })
  extraction_sets: AttachedExtractionSetDto[];

  @ApiProperty({
    type: [AttachedCustomFunctionDto],
    description: 'Custom functions the model may call during this agent’s calls, in attach order',
  })
  custom_functions: AttachedCustomFunctionDto[];

  @ApiProperty({ type: Number, nullable: true, description: 'null = no cap' })
  max_call_duration_secs: number | null;

  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  background_audio_id: string | null;

  @ApiProperty({ description: '0..1 (0.3 unless set)' })
  background_audio_volume: number;

  @ApiProperty({ description: "Whether account-wide webhook endpoints receive this agent's events" })
  webhooks_include_account_endpoints: boolean;

  @ApiProperty({
    type: TranscriberDto,
    nullable: true,
    description: 'Speech-to-text of the agent’s calls; null = the deployment’s default',
  })
  transcriber: TranscriberDto | null;

  @ApiProperty({
    type: TranscriberDto,
    nullable: true,
    description: 'Used when the transcriber fails; null = none',
  })
  fallback_transcriber: TranscriberDto | null;

  @ApiProperty({
    type: [String],
    format: 'uuid',
    description: 'Voices to fall back to, in order, when the voice’s provider fails',
  })
  fallback_voice_ids: string[];

  @ApiProperty({ type: [String], format: 'uuid', description: 'The account’s dictionaries the agent uses' })
  dictionary_ids: string[];

  @ApiProperty({ type: AgentModelDto, nullable: true, description: MODEL_DESCRIPTION })
  model: AgentModelDto | null;

  @ApiProperty({ type: [AgentModelDto], description: FALLBACK_MODELS_DESCRIPTION })
  fallback_models: AgentModelDto[];

  @ApiProperty({ type: [AgentDocumentDto], description: 'Knowledge-base documents linked to the agent' })
  documents: AgentDocumentDto[];

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;
}

export class AgentListDto {
  @ApiProperty({ type: [AgentDto] })
  agents: AgentDto[];

  @NextCursor()
  next_cursor: string | null;
}

export class AgentDeletedDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'Agent deleted' })
  message: string;
}

// The input that creates and updates an agent, beside the record it is shown as: a setting's field is written
// in both here.

// class-validator runs a property's decorators bottom-up: the type check sits lowest so that a value of the
// wrong type is reported as such, not as a failed length or range.

/** The optional creation fields of the contract's Agent table; shared by create and update. */
export class AgentSettingsDto {
  @ApiPropertyOptional({
    type: [String],
    enum: SPOKEN_LANGUAGES,
    maxItems: 2,
    description:
      'At most 2 distinct codes; at most one of Hindi and the regional languages; hinglish only alone or with en or hi. ' +
      'Empty or omitted = platform default (en). Valid: [en,hi], [en,hinglish], [hi,hinglish], [en,te]. Invalid: [mr,te], [te,hi], [mr,hi].',
    example: ['en', 'hi'],
  })
  @IfPresent()
  @IsSpokenLanguages()
  spoken_languages?: SpokenLanguage[];

  @NullableText(AgentLimits.messageMax, 'Greeting spoken when the call connects; null or empty = none')
  intro_message?: string | null;

  @OptionalFlag(AgentDefaults.voicemailDetectionEnabled, 'Detect answering machines')
  voicemail_detection_enabled?: boolean;

  @OptionalFlag(
    AgentDefaults.screenerHandlingEnabled,
    'Handle call screeners; requires voicemail_detection_enabled true',
  )
  screener_handling_enabled?: boolean;

  @NullableText(AgentLimits.messageMax, 'Left on voicemail; null or empty clears it')
  voicemail_message?: string | null;

  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    nullable: true,
    description: "One of the account's projects; omitted or null = the account's default project",
  })
  @IsOptional()
  @IsUUID(undefined, { message: 'project_id must be a UUID' })
  project_id?: string | null;

  @OptionalFlag(AgentDefaults.enableRecording, 'Record calls')
  enable_recording?: boolean;

  @ApiPropertyOptional({
    enum: KB_THRESHOLDS,
    nullable: true,
    default: AgentDefaults.kbThreshold,
    description:
      'Knowledge-base relevance cut-off; null = no cut-off (the best chunks are used whatever their score)',
  })
  @IsOptional()
  @IsIn(KB_THRESHOLDS as unknown as string[], { message: 'kb_threshold must be low, medium, high or null' })
  kb_threshold?: KbThreshold | null;

  @OptionalFlag(AgentDefaults.kbIncludeSummaries, 'Include document summaries in knowledge-base results')
  kb_include_summaries?: boolean;

  @NullableText(AgentLimits.kbResultFormatMax, 'Template for knowledge-base results given to the model')
  kb_result_format?: string | null;

  @OptionalFlag(AgentDefaults.kbEnableLlmProcessing, 'Post-process knowledge-base results with a model')
  kb_enable_llm_processing?: boolean;

  @NullableText(AgentLimits.kbSystemPromptMax, 'System prompt of that post-processing')
  kb_llm_system_prompt?: string | null;

  @OptionalFlag(AgentDefaults.endCallEnabled, 'false: the agent cannot end calls itself')
  end_call_enabled?: boolean;

  @NullableText(AgentLimits.messageMax, 'Said before hanging up; null or empty = platform default')
  end_call_message?: string | null;

  @NullableText(
    AgentLimits.instructionsMax,
    'Free-text conditions for ending the call; null or empty = section skipped',
  )
  end_call_instructions?: string | null;

  @OptionalFlag(AgentDefaults.transferEnabled, 'Cold transfer to a human; needs transfer_number')
  transfer_enabled?: boolean;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    pattern: E164_PATTERN.source,
    example: '+919876543210',
    description: 'E.164; required when transfer_enabled is true',
  })
  @IsOptional()
  @Matches(E164_PATTERN, { message: 'transfer_number must be an E.164 number such as +919876543210' })
  @IsString()
  transfer_number?: string | null;

  @NullableText(AgentLimits.messageMax, 'Said before transferring; null or empty = platform default')
  transfer_message?: string | null;

  @NullableText(AgentLimits.instructionsMax, 'When to transfer')
  transfer_instructions?: string | null;

  @ApiPropertyOptional({
    enum: TRANSFER_MODES,
    default: AgentDefaults.transferMode,
    description: TRANSFER_MODE_DESCRIPTION,
  })
  @IfPresent()
  @IsIn(TRANSFER_MODES as unknown as string[], {
    message: 'transfer_mode must be cold, warm or warm_handback',
  })
  transfer_mode?: TransferMode;

  @NullableText(
    AgentLimits.instructionsMax,
    "What the briefing the human hears before a warm transfer covers; null or empty = the platform's briefing",
  )
  transfer_briefing_instructions?: string | null;

  @ApiPropertyOptional({
    type: Number,
    minimum: AgentLimits.transferRingTimeoutMin,
    maximum: AgentLimits.transferRingTimeoutMax,
    default: AgentDefaults.transferRingTimeoutSecs,
    description:
      "Warm transfers: how long the human's phone rings before the transfer counts as not answered",
  })
  @IfPresent()
  @Min(AgentLimits.transferRingTimeoutMin)
  @Max(AgentLimits.transferRingTimeoutMax)
  @IsInt({ message: 'transfer_ring_timeout_secs must be an integer' })
  transfer_ring_timeout_secs?: number;

  @OptionalFlag(
    AgentDefaults.userIdleEnabled,
    'false: the agent neither prompts nor ends the call on silence',
  )
  user_idle_enabled?: boolean;

  @ApiPropertyOptional({
    type: ToolAckConfigInputDto,
    nullable: true,
    description: 'Spoken acknowledgement while a tool runs. Omitted = enabled, mode dynamic; null = off',
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => ToolAckConfigInputDto)
  @IsObject({ message: 'tool_ack_config must be an object or null' })
  tool_ack_config?: ToolAckConfigInputDto | null;

  @ApiPropertyOptional({
    type: TurnTakingInputDto,
    nullable: true,
    description:
      `${TURN_TAKING_DESCRIPTION} Omitted = mode ${TurnTakingDefaults.mode}, the mode's bounds, ` +
      'acknowledgements ignored; null = the same defaults. On update the fields sent replace the stored ones ' +
      'and the others are kept.',
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => TurnTakingInputDto)
  @IsObject({ message: 'turn_taking must be an object or null' })
  turn_taking?: TurnTakingInputDto | null;

  @ApiPropertyOptional({
    type: DtmfInputDto,
    nullable: true,
    description:
      `${DTMF_DESCRIPTION} Omitted = disabled, no fixed length, terminator #, timeout 3000 ms; null = the same ` +
      'defaults. On update the fields sent replace the stored ones and the others are kept.',
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => DtmfInputDto)
  @IsObject({ message: 'dtmf must be an object or null' })
  dtmf?: DtmfInputDto | null;

  @OptionalFlag(AgentDefaults.sendDtmfEnabled, SEND_DTMF_DESCRIPTION)
  send_dtmf_enabled?: boolean;

  @ApiPropertyOptional({
    type: [String],
    nullable: true,
    maxItems: AGENT_TOOLS_MAX,
    example: ['end_call', 'search_knowledge_base'],
    description: `${AGENT_TOOLS_DESCRIPTION} On update the list sent replaces the stored one.`,
  })
  @IsOptional()
  @IsAgentToolNames()
  @IsDistinct()
  @ArrayMaxSize(AGENT_TOOLS_MAX, { message: `tools takes at most ${AGENT_TOOLS_MAX} names` })
  @IsArray({ message: 'tools must be an array of tool names or null' })
  tools?: string[] | null;
  @OptionalFlag(AgentDefaults.smsEnabled, SMS_ENABLED_DESCRIPTION)
  sms_enabled?: boolean;

  @ApiPropertyOptional({
    enum: SMS_RECIPIENT_RULES,
    default: AgentDefaults.smsAllowedRecipients,
    description: SMS_RECIPIENTS_DESCRIPTION,
  })
  @IfPresent()
  @IsIn(SMS_RECIPIENT_RULES as unknown as string[], {
    message: `sms_allowed_recipients must be one of ${SMS_RECIPIENT_RULES.join(', ')}`,
  })
  sms_allowed_recipients?: SmsRecipientRule;

  @OptionalFlag(AgentDefaults.extractionEnabled, 'false: post-call extraction is skipped even if keys exist')
  extraction_enabled?: boolean;

  @ApiPropertyOptional({
    type: AnalysisConfigInputDto,
    nullable: true,
    description:
      `${ANALYSIS_DESCRIPTION} Omitted = summary on, no success evaluation, threshold 7; null = the same defaults. ` +
      'On update the fields sent replace the stored ones and the others are kept.',
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => AnalysisConfigInputDto)
  @IsObject({ message: 'analysis_config must be an object or null' })
  analysis_config?: AnalysisConfigInputDto | null;

  @ApiPropertyOptional({
    type: [HandoffInputDto],
    nullable: true,
    maxItems: HANDOFF_LIMITS.perAgent,
    description: `${HANDOFFS_DESCRIPTION} null or [] = none; on update the list sent replaces the stored one.`,
  })
  @IsOptional()
  @ValidateNested({ each: true })
  @Type(() => HandoffInputDto)
  @ArrayMaxSize(HANDOFF_LIMITS.perAgent, {
    message: `handoffs takes at most ${HANDOFF_LIMITS.perAgent} agents`,
  })
  @IsArray({ message: 'handoffs must be an array or null' })
  handoffs?: HandoffInputDto[] | null;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    minimum: AgentLimits.maxCallDurationMin,
    maximum: AgentLimits.maxCallDurationMax,
    default: AgentDefaults.maxCallDurationSecs,
    description:
      'Call length cap in seconds; null disables the cap. A wrap-up warning is spoken 30 s before it.',
  })
  @IsOptional()
  @Min(AgentLimits.maxCallDurationMin)
  @Max(AgentLimits.maxCallDurationMax)
  @IsInt({ message: 'max_call_duration_secs must be an integer or null' })
  max_call_duration_secs?: number | null;

  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'From GET /agent/background-audio; null = none',
  })
  @IsOptional()
  @IsUUID(undefined, { message: 'background_audio_id must be a UUID' })
  background_audio_id?: string | null;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    minimum: 0,
    maximum: 1,
    default: AgentDefaults.backgroundAudioVolume,
    description: '0..1; null = 0.3',
  })
  @IsOptional()
  @Min(0)
  @Max(1)
  @IsNumber(
    { allowNaN: false, allowInfinity: false },
    { message: 'background_audio_volume must be a number or null' },
  )
  background_audio_volume?: number | null;

  @ApiPropertyOptional({
    type: TranscriberInputDto,
    nullable: true,
    description:
      'Speech-to-text of the agent’s calls. Omitted or null = the deployment’s default transcriber. languages must ' +
      'be among the agent’s spoken_languages; options are only the provider’s own, within their bounds. Replaced whole on update.',
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => TranscriberInputDto)
  @IsObject({ message: 'transcriber must be an object or null' })
  transcriber?: TranscriberInputDto | null;

  @ApiPropertyOptional({
    type: TranscriberInputDto,
    nullable: true,
    description:
      'Used when the transcriber’s provider fails during a call; same rules as transcriber; null = none',
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => TranscriberInputDto)
  @IsObject({ message: 'fallback_transcriber must be an object or null' })
  fallback_transcriber?: TranscriberInputDto | null;

  @ApiPropertyOptional({
    type: [String],
    format: 'uuid',
    maxItems: MAX_FALLBACK_VOICES,
    description:
      `Voices to fall back to, in order, when the agent’s voice’s provider fails: at most ${MAX_FALLBACK_VOICES} catalog ` +
      'voices the account may use (GET /agent/voices), distinct, not voice_id itself. null or [] = none.',
  })
  @IsOptional()
  @IsDistinct()
  @IsUUID(undefined, { each: true, message: 'fallback_voice_ids must hold voice UUIDs' })
  @ArrayMaxSize(MAX_FALLBACK_VOICES, {
    message: `fallback_voice_ids takes at most ${MAX_FALLBACK_VOICES} voices`,
  })
  @IsArray({ message: 'fallback_voice_ids must be an array of voice ids or null' })
  fallback_voice_ids?: string[] | null;

  @ApiPropertyOptional({
    type: [String],
    format: 'uuid',
    maxItems: MAX_AGENT_DICTIONARIES,
    description:
      `The account’s pronunciation dictionaries (GET /dictionaries) the agent uses: at most ${MAX_AGENT_DICTIONARIES}, ` +
      'distinct. Their words are boosted in recognition and said as their entries say. null or [] = none.',
  })
  @IsOptional()
  @IsDistinct()
  @IsUUID(undefined, { each: true, message: 'dictionary_ids must hold dictionary UUIDs' })
  @ArrayMaxSize(MAX_AGENT_DICTIONARIES, {
    message: `dictionary_ids takes at most ${MAX_AGENT_DICTIONARIES} dictionaries`,
  })
  @IsArray({ message: 'dictionary_ids must be an array of dictionary ids or null' })
  dictionary_ids?: string[] | null;

  @ApiPropertyOptional({ type: AgentModelInputDto, nullable: true, description: MODEL_DESCRIPTION })
  @IsOptional()
  @ValidateNested()
  @Type(() => AgentModelInputDto)
  @IsObject({ message: 'model must be an object or null' })
  model?: AgentModelInputDto | null;

  @ApiPropertyOptional({
    type: [AgentModelInputDto],
    nullable: true,
    maxItems: MAX_FALLBACK_MODELS,
    description: FALLBACK_MODELS_DESCRIPTION,
  })
  @IsOptional()
  @ValidateNested({ each: true })
  @Type(() => AgentModelInputDto)
  @ArrayMaxSize(MAX_FALLBACK_MODELS, {
    message: `fallback_models takes at most ${MAX_FALLBACK_MODELS} models`,
  })
  @IsArray({ message: 'fallback_models must be an array of models or null' })
  fallback_models?: AgentModelInputDto[] | null;
}

/** POST /agent: the contract's creation fields, nothing else. */
export class CreateAgentDto extends AgentSettingsDto {
  @ApiProperty({
    minLength: 1,
    maxLength: AgentLimits.nameMax,
    description: 'Unique on the account (among agents not deleted)',
  })
  @IsDefined({ message: 'agent_name is required' })
  @Transform(trimString)
  @Length(1, AgentLimits.nameMax, { message: `agent_name must be 1 to ${AgentLimits.nameMax} characters` })
  @IsString()
  agent_name: string;

  @ApiProperty({ minLength: 1, maxLength: AgentLimits.promptMax })
  @IsDefined({ message: 'prompt is required' })
  @Length(1, AgentLimits.promptMax, { message: `prompt must be 1 to ${AgentLimits.promptMax} characters` })
  @Matches(/\S/, { message: 'prompt must not be blank' })
  @IsString()
  prompt: string;

  @ApiProperty({
    format: 'uuid',
    description:
      'voice_id from GET /agent/voices (or the UUID part of a voice configuration id); the agent’s gender is the voice’s',
  })
  @IsDefined({ message: 'voice_id is required' })
  @IsUUID(undefined, { message: 'voice_id must be a UUID' })
  voice_id: string;

  @ApiProperty({ enum: AGENT_TYPES })
  @IsDefined({ message: 'agent_type is required' })
  @IsIn(AGENT_TYPES as unknown as string[], { message: 'agent_type must be inbound or outbound' })
  agent_type: AgentType;
}

/**
 * PUT /agent/{id}: a partial update. Omitted fields keep their values; a field sent as null takes the
 * meaning null has at creation (default, off or cleared); nested objects are replaced whole, except
 * turn_taking and dtmf, whose fields sent replace the stored ones and whose others are kept.
 */
export class UpdateAgentDto extends AgentSettingsDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: AgentLimits.nameMax })
  @IfPresent()
  @Transform(trimString)
  @Length(1, AgentLimits.nameMax, { message: `agent_name must be 1 to ${AgentLimits.nameMax} characters` })
  @IsString()
  agent_name?: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: AgentLimits.promptMax })
  @IfPresent()
  @Length(1, AgentLimits.promptMax, { message: `prompt must be 1 to ${AgentLimits.promptMax} characters` })
  @Matches(/\S/, { message: 'prompt must not be blank' })
  @IsString()
  prompt?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @IfPresent()
  @IsUUID(undefined, { message: 'voice_id must be a UUID' })
  voice_id?: string;

  @ApiPropertyOptional({ enum: AGENT_TYPES })
  @IfPresent()
  @IsIn(AGENT_TYPES as unknown as string[], { message: 'agent_type must be inbound or outbound' })
  agent_type?: AgentType;

  @ApiPropertyOptional({
    type: ExtractionConfigInputDto,
    nullable: true,
    description: 'Inline post-call extraction keys (replaces the stored list); null clears them',
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => ExtractionConfigInputDto)
  @IsObject({ message: 'extraction_config must be an object or null' })
  extraction_config?: ExtractionConfigInputDto | null;

  @OptionalFlag(
    AgentDefaults.webhooksIncludeAccountEndpoints,
    "false: account-wide webhook endpoints stop receiving this agent's events; needs an enabled webhook endpoint of " +
      'the agent’s own (409 NO_AGENT_ENDPOINT); flips back to true when the last one is deleted or disabled',
  )
  webhooks_include_account_endpoints?: boolean;
}
