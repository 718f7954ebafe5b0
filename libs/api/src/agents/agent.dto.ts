import { ApiProperty } from '@nestjs/swagger';
import { ExtractionConfigDto } from '../extraction/extraction-key.dto';
import {
  AgentLimits,
  TRANSFER_MODES,
  TransferMode,
  AGENT_STATUSES,
  AGENT_TYPES,
  AgentStatus,
  AgentType,
  KB_THRESHOLDS,
  KbThreshold,
  SPOKEN_LANGUAGES,
  SpokenLanguage,
  SMS_RECIPIENT_RULES,
  SmsRecipientRule,
  VOICE_GENDERS,
  VoiceGender,
} from '@vap/messages';
import { VoiceSummaryDto } from '../voices/agent-voice.dto';
import { ToolAckConfigDto } from './tool-ack-config.dto';
import { TURN_TAKING_DESCRIPTION, TurnTakingDto } from './turn-taking.dto';
import {
  DTMF_DESCRIPTION,
  DtmfDto,
  SEND_DTMF_DESCRIPTION,
  SMS_ENABLED_DESCRIPTION,
  SMS_RECIPIENTS_DESCRIPTION,
} from './dtmf.dto';
import { ANALYSIS_DESCRIPTION, AnalysisConfigDto } from './analysis.dto';
import { HANDOFFS_DESCRIPTION, HandoffDto } from './handoff.dto';
import { AGENT_TOOLS_DESCRIPTION } from './agent-tools.dto';
import { TranscriberDto } from './transcriber.dto';
import { AgentModelDto, FALLBACK_MODELS_DESCRIPTION, MODEL_DESCRIPTION } from './agent-model.dto';
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
