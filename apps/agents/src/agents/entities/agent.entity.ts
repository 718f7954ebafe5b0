import { Column, Entity, PrimaryColumn } from 'typeorm';
import { Timestamped } from '@vap/persistence';
import { AgentModelDto, agentModelSettingsOf, ExtractionConfigDto, ToolAckConfigDto } from '@vap/api';
import {
  AGENT_SNAPSHOT_VERSION,
  AgentSnapshot,
  AgentType,
  AnalysisConfig,
  analysisSnapshotOf,
  customFunctionSnapshotOf,
  CustomFunctionSpec,
  DEFAULT_SPOKEN_LANGUAGES,
  DtmfInputConfig,
  dtmfSnapshotOf,
  HandoffConfig,
  handoffSnapshotOf,
  KbThreshold,
  SpokenLanguage,
  toolAckSnapshotOf,
  TranscriberSettings,
  TransferMode,
  TurnTakingConfig,
  turnTakingSnapshotOf,
} from '@vap/messages';

/** A voice agent. Soft-deleted: deleted_at set means gone for every route and every other service. */
@Entity({ name: 'agents' })
export class Agent extends Timestamped {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ name: 'partner_id', type: 'uuid' })
  partnerId: string;

  @Column({ name: 'project_id', type: 'uuid' })
  projectId: string;

  @Column({ name: 'agent_name', type: 'text' })
  agentName: string;

  @Column('text')
  prompt: string;

  @Column({ name: 'agent_type', type: 'text' })
  agentType: AgentType;

  @Column({ name: 'voice_id', type: 'uuid' })
  voiceId: string;

  /** Empty means the platform default. */
  @Column({ name: 'spoken_languages', type: 'text', array: true })
  spokenLanguages: SpokenLanguage[];

  @Column({ name: 'intro_message', type: 'text', nullable: true })
  introMessage: string | null;

  @Column({ name: 'voicemail_detection_enabled', type: 'boolean' })
  voicemailDetectionEnabled: boolean;

  @Column({ name: 'screener_handling_enabled', type: 'boolean' })
  screenerHandlingEnabled: boolean;

  @Column({ name: 'voicemail_message', type: 'text', nullable: true })
  voicemailMessage: string | null;

  @Column({ name: 'enable_recording', type: 'boolean' })
  enableRecording: boolean;

  @Column({ name: 'kb_threshold', type: 'text', nullable: true })
  kbThreshold: KbThreshold | null;

  @Column({ name: 'kb_include_summaries', type: 'boolean' })
  kbIncludeSummaries: boolean;

  @Column({ name: 'kb_result_format', type: 'text', nullable: true })
  kbResultFormat: string | null;

  @Column({ name: 'kb_enable_llm_processing', type: 'boolean' })
  kbEnableLlmProcessing: boolean;

  @Column({ name: 'kb_llm_system_prompt', type: 'text', nullable: true })
  kbLlmSystemPrompt: string | null;

  @Column({ name: 'end_call_enabled', type: 'boolean' })
  endCallEnabled: boolean;

  @Column({ name: 'end_call_message', type: 'text', nullable: true })
  endCallMessage: string | null;

  @Column({ name: 'end_call_instructions', type: 'text', nullable: true })
  endCallInstructions: string | null;

  @Column({ name: 'transfer_enabled', type: 'boolean' })
  transferEnabled: boolean;

  @Column({ name: 'transfer_number', type: 'text', nullable: true })
  transferNumber: string | null;

  @Column({ name: 'transfer_message', type: 'text', nullable: true })
  transferMessage: string | null;

  @Column({ name: 'transfer_instructions', type: 'text', nullable: true })
  transferInstructions: string | null;

  @Column({ name: 'transfer_mode', type: 'text', default: 'cold' })
  transferMode: TransferMode;

  @Column({ name: 'transfer_briefing_instructions', type: 'text', nullable: true })
  transferBriefingInstructions: string | null;

  @Column({ name: 'transfer_ring_timeout_secs', type: 'integer', default: 20 })
  transferRingTimeoutSecs: number;

  @Column({ name: 'user_idle_enabled', type: 'boolean' })
  userIdleEnabled: boolean;

  /** null: acknowledgements off. */
  @Column({ name: 'tool_ack_config', type: 'jsonb', nullable: true })
  toolAckConfig: ToolAckConfigDto | null;

  /** Every field present; null silence bounds keep the mode's. */
  @Column({ name: 'turn_taking', type: 'jsonb' })
  turnTaking: TurnTakingConfig;

  /** Every field present. */
  @Column({ name: 'dtmf', type: 'jsonb' })
  dtmf: DtmfInputConfig;

  @Column({ name: 'analysis_config', type: 'jsonb' })
  analysisConfig: AnalysisConfig;

  @Column({ type: 'jsonb' })
  handoffs: HandoffConfig[];

  @Column({ name: 'send_dtmf_enabled', type: 'boolean' })
  sendDtmfEnabled: boolean;

  /** The built-in tools the model may be offered (names of the agent tool catalog); null: every one. */
  @Column({ type: 'jsonb', nullable: true })
  tools: string[] | null;
  @Column({ name: 'sms_enabled', type: 'boolean' })
  smsEnabled: boolean;

  @Column({ name: 'sms_allowed_recipients', type: 'text' })
  smsAllowedRecipients: 'caller' | 'any';

  @Column({ name: 'extraction_enabled', type: 'boolean' })
  extractionEnabled: boolean;

  /** Inline extraction keys; keys of attached sets live on the sets. */
  @Column({ name: 'extraction_config', type: 'jsonb' })
  extractionConfig: ExtractionConfigDto;

  /** null: no cap. */
  @Column({ name: 'max_call_duration_secs', type: 'integer', nullable: true })
  maxCallDurationSecs: number | null;

  @Column({ name: 'background_audio_id', type: 'uuid', nullable: true })
  backgroundAudioId: string | null;

  @Column({ name: 'background_audio_volume', type: 'double precision' })
  backgroundAudioVolume: number;

  @Column({ name: 'webhooks_include_account_endpoints', type: 'boolean' })
  webhooksIncludeAccountEndpoints: boolean;

  /** null: the deployment's default transcriber. */
  @Column({ type: 'jsonb', nullable: true })
  transcriber: TranscriberSettings | null;

  @Column({ name: 'fallback_transcriber', type: 'jsonb', nullable: true })
  fallbackTranscriber: TranscriberSettings | null;

  /** Catalog voices to fall back to, in order. */
  @Column({ name: 'fallback_voice_ids', type: 'uuid', array: true })
  fallbackVoiceIds: string[];

  /** The account's dictionaries the agent uses (never deleted while listed here: the delete is refused). */
  @Column({ name: 'dictionary_ids', type: 'uuid', array: true })
  dictionaryIds: string[];

  /** The model the agent thinks with, every parameter present (null: the provider's default); null: the deployment's. */
  @Column({ type: 'jsonb', nullable: true })
  model: AgentModelDto | null;

  /** Models to fall back to, in order (at most MAX_FALLBACK_MODELS). */
  @Column({ name: 'fallback_models', type: 'jsonb' })
  fallbackModels: AgentModelDto[];

  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt: Date | null;
}

/** What a call's snapshot takes from outside the agent's row: its attached functions and linked documents. */
export interface AgentAttachments {
  /** The functions attached to the agent, as the model sees them. */
  customFunctions: CustomFunctionSpec[];
  /** Documents are linked to the agent (the model gets the knowledge base search). */
  hasKnowledge: boolean;
}

/**
 * The snapshot a call keeps of its agent, taken from the agent's row as it is when the call starts (or is handed
 * to it): beside the columns so that a setting and how it reaches calls are written in one place. Function URLs
 * and secrets stay in the agents service; the calls service stores the snapshot as it is answered.
 */
export function agentSnapshotOf(agent: Agent, attached: AgentAttachments): AgentSnapshot {
  return {
    version: AGENT_SNAPSHOT_VERSION,
    prompt: agent.prompt,
    voiceId: agent.voiceId,
    // Empty means the platform default, as the agent record shows it.
    spokenLanguages: agent.spokenLanguages.length
      ? [...agent.spokenLanguages]
      : [...DEFAULT_SPOKEN_LANGUAGES],
    introMessage: agent.introMessage,
    enableRecording: agent.enableRecording,
    maxCallDurationSecs: agent.maxCallDurationSecs,
    endCallEnabled: agent.endCallEnabled,
    endCallMessage: agent.endCallMessage,
    endCallInstructions: agent.endCallInstructions,
    transferEnabled: agent.transferEnabled,
    transferNumber: agent.transferNumber,
    transferMessage: agent.transferMessage,
    transferInstructions: agent.transferInstructions,
    voicemailDetectionEnabled: agent.voicemailDetectionEnabled,
    voicemailMessage: agent.voicemailMessage,
    userIdleEnabled: agent.userIdleEnabled,
    toolAckConfig: agent.toolAckConfig && toolAckSnapshotOf(agent.toolAckConfig),
    turnTaking: turnTakingSnapshotOf(agent.turnTaking),
    dtmf: dtmfSnapshotOf(agent.dtmf),
    sendDtmfEnabled: agent.sendDtmfEnabled,
    tools: agent.tools && [...agent.tools],
    smsEnabled: agent.smsEnabled,
    smsAllowedRecipients: agent.smsAllowedRecipients,
    backgroundAudioId: agent.backgroundAudioId,
    backgroundAudioVolume: agent.backgroundAudioVolume,
    kbThreshold: agent.kbThreshold,
    kbIncludeSummaries: agent.kbIncludeSummaries,
    kbResultFormat: agent.kbResultFormat,
    hasKnowledge: attached.hasKnowledge,
    extractionEnabled: agent.extractionEnabled,
    analysis: analysisSnapshotOf(agent.analysisConfig),
    handoffs: agent.handoffs.map(handoffSnapshotOf),
    transfer: {
      mode: agent.transferMode,
      briefingInstructions: agent.transferBriefingInstructions,
      ringTimeoutSecs: agent.transferRingTimeoutSecs,
    },
    customFunctions: attached.customFunctions.map(customFunctionSnapshotOf),
    // Speech choices: resolved into providers and keys when the call's media starts (agents.speech.plan).
    fallbackVoiceIds: [...agent.fallbackVoiceIds],
    transcriber: agent.transcriber,
    fallbackTranscriber: agent.fallbackTranscriber,
    dictionaryIds: [...agent.dictionaryIds],
    // The model: resolved into providers and keys when the call starts (agents.model.plan).
    model: agent.model && agentModelSettingsOf(agent.model),
    fallbackModels: agent.fallbackModels.map(agentModelSettingsOf),
  };
}
