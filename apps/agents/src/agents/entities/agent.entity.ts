import { Column, Entity, PrimaryColumn } from 'typeorm';
import { Timestamped } from '@vap/persistence';
import {
  AgentDocumentDto,
  AgentDto,
  AgentModelDto,
  agentModelSettingsOf,
  AgentSettingsDto,
  AnalysisConfigInputDto,
  AttachedCustomFunctionDto,
  AttachedExtractionSetDto,
  CreateAgentDto,
  DtmfInputDto,
  ExtractionConfigDto,
  HandoffInputDto,
  normalizeAgentModel,
  normalizeTranscriber,
  ToolAckConfigDto,
  ToolAckConfigInputDto,
  TurnTakingInputDto,
  UpdateAgentDto,
} from '@vap/api';
import {
  AGENT_SNAPSHOT_VERSION,
  AgentDefaults,
  AgentSnapshot,
  AgentType,
  AnalysisConfig,
  AnalysisDefaults,
  analysisSnapshotOf,
  customFunctionSnapshotOf,
  CustomFunctionSpec,
  DEFAULT_SPOKEN_LANGUAGES,
  DtmfDefaults,
  DtmfInputConfig,
  dtmfSnapshotOf,
  HANDOFF_LAST_TURNS_DEFAULT,
  HandoffConfig,
  handoffSnapshotOf,
  KbThreshold,
  SpokenLanguage,
  ToolAckDefaults,
  toolAckSnapshotOf,
  TranscriberSettings,
  TransferMode,
  TurnTakingConfig,
  TurnTakingDefaults,
  turnTakingSnapshotOf,
} from '@vap/messages';
import { Voice } from '../../voices/entities/voice.entity';
import { toVoiceSummaryDto } from '../../voices/voice-records';

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

// How a row is made from the public input, changed by it and shown as the record: beside the columns, so that a
// setting is written once on this side (column, default, input, record, snapshot).

/** tool_ack_config as stored: omitted sub-fields take their defaults; null means off. */
export function normalizeToolAck(input: ToolAckConfigInputDto | null): ToolAckConfigDto | null {
  if (input === null) return null;
  const mode = input.mode ?? ToolAckDefaults.mode;
  return {
    enabled: input.enabled ?? ToolAckDefaults.enabled,
    mode,
    phrases: mode === 'static' ? [...(input.phrases ?? [])] : [],
    delay_ms: input.delay_ms ?? ToolAckDefaults.delayMs,
  };
}

/**
 * turn_taking as stored after a request: the fields sent replace the current ones, the others stay (at
 * creation the current ones are the defaults); null puts every field back to its default.
 */
export function mergeTurnTaking(
  current: TurnTakingConfig,
  input: TurnTakingInputDto | null,
): TurnTakingConfig {
  if (input === null) return { ...TurnTakingDefaults };
  return {
    mode: input.mode ?? current.mode,
    min_silence_ms: input.min_silence_ms === undefined ? current.min_silence_ms : input.min_silence_ms,
    max_silence_ms: input.max_silence_ms === undefined ? current.max_silence_ms : input.max_silence_ms,
    ignore_backchannels: input.ignore_backchannels ?? current.ignore_backchannels,
  };
}

/** dtmf as stored after a request, merged as turn_taking is: fields sent replace, null resets to the defaults. */
export function mergeDtmf(current: DtmfInputConfig, input: DtmfInputDto | null): DtmfInputConfig {
  if (input === null) return { ...DtmfDefaults };
  return {
    enabled: input.enabled ?? current.enabled,
    max_digits: input.max_digits === undefined ? current.max_digits : input.max_digits,
    terminator: input.terminator === undefined ? current.terminator : input.terminator,
    timeout_ms: input.timeout_ms ?? current.timeout_ms,
  };
}

/** analysis_config as stored after a request, merged as dtmf is: fields sent replace, null resets to the defaults. */
export function mergeAnalysis(current: AnalysisConfig, input: AnalysisConfigInputDto | null): AnalysisConfig {
  if (input === null) return { ...AnalysisDefaults };
  const given = (value: string | null | undefined, now: string | null) =>
    value === undefined ? now : (text(value) ?? null);
  return {
    summary_enabled: input.summary_enabled ?? current.summary_enabled,
    summary_instructions: given(input.summary_instructions, current.summary_instructions),
    success_rubric: given(input.success_rubric, current.success_rubric),
    success_threshold: input.success_threshold ?? current.success_threshold,
  };
}

/** handoffs as stored: each destination with its defaults; the list sent replaces the stored one, null clears. */
export function normalizeHandoffs(input: HandoffInputDto[] | null): HandoffConfig[] {
  return (input ?? []).map((h) => {
    const mode = h.context_mode ?? 'full';
    return {
      name: h.name,
      description: h.description,
      agent_id: h.agent_id.toLowerCase(),
      context_mode: mode,
      last_turns: mode === 'last_turns' ? (h.last_turns ?? HANDOFF_LAST_TURNS_DEFAULT) : null,
      variables: h.variables ? [...h.variables] : null,
    };
  });
}

/** "null or empty" texts are stored as null, so the platform default applies in one way only. */
function text(value: string | null | undefined): string | null | undefined {
  if (value === undefined) return undefined;
  return value === null || value.trim() === '' ? null : value;
}

/** A new agent with every optional field at its default. */
export function newAgent(id: string, partnerId: string, input: CreateAgentDto): Agent {
  const agent = new Agent();
  Object.assign(agent, {
    id,
    partnerId,
    agentName: input.agent_name,
    prompt: input.prompt,
    voiceId: input.voice_id,
    agentType: input.agent_type,
    spokenLanguages: [],
    introMessage: null,
    voicemailDetectionEnabled: AgentDefaults.voicemailDetectionEnabled,
    screenerHandlingEnabled: AgentDefaults.screenerHandlingEnabled,
    voicemailMessage: null,
    enableRecording: AgentDefaults.enableRecording,
    kbThreshold: AgentDefaults.kbThreshold,
    kbIncludeSummaries: AgentDefaults.kbIncludeSummaries,
    kbResultFormat: null,
    kbEnableLlmProcessing: AgentDefaults.kbEnableLlmProcessing,
    kbLlmSystemPrompt: null,
    endCallEnabled: AgentDefaults.endCallEnabled,
    endCallMessage: null,
    endCallInstructions: null,
    transferEnabled: AgentDefaults.transferEnabled,
    transferNumber: null,
    transferMessage: null,
    transferInstructions: null,
    transferMode: AgentDefaults.transferMode,
    transferBriefingInstructions: null,
    transferRingTimeoutSecs: AgentDefaults.transferRingTimeoutSecs,
    userIdleEnabled: AgentDefaults.userIdleEnabled,
    toolAckConfig: normalizeToolAck({}),
    turnTaking: { ...TurnTakingDefaults },
    dtmf: { ...DtmfDefaults },
    analysisConfig: { ...AnalysisDefaults },
    handoffs: [],
    sendDtmfEnabled: AgentDefaults.sendDtmfEnabled,
    tools: null,
    smsEnabled: AgentDefaults.smsEnabled,
    smsAllowedRecipients: AgentDefaults.smsAllowedRecipients,
    extractionEnabled: AgentDefaults.extractionEnabled,
    extractionConfig: { keys: [] },
    maxCallDurationSecs: AgentDefaults.maxCallDurationSecs,
    backgroundAudioId: null,
    backgroundAudioVolume: AgentDefaults.backgroundAudioVolume,
    webhooksIncludeAccountEndpoints: AgentDefaults.webhooksIncludeAccountEndpoints,
    transcriber: null,
    fallbackTranscriber: null,
    fallbackVoiceIds: [],
    dictionaryIds: [],
    model: null,
    fallbackModels: [],
    deletedAt: null,
  } satisfies Partial<Agent>);
  applySettings(agent, input);
  return agent;
}

function set<K extends keyof Agent>(agent: Agent, key: K, value: Agent[K] | undefined): void {
  if (value !== undefined) agent[key] = value;
}

/**
 * Applies the optional fields that are present; absent ones keep their value. References (voice,
 * project, background audio) and inline extraction keys are resolved by the service.
 */
export function applySettings(agent: Agent, input: AgentSettingsDto): void {
  set(agent, 'spokenLanguages', input.spoken_languages && [...input.spoken_languages]);
  set(agent, 'introMessage', text(input.intro_message));
  set(agent, 'voicemailDetectionEnabled', input.voicemail_detection_enabled);
  set(agent, 'screenerHandlingEnabled', input.screener_handling_enabled);
  set(agent, 'voicemailMessage', text(input.voicemail_message));
  set(agent, 'enableRecording', input.enable_recording);
  set(agent, 'kbThreshold', input.kb_threshold);
  set(agent, 'kbIncludeSummaries', input.kb_include_summaries);
  set(agent, 'kbResultFormat', text(input.kb_result_format));
  set(agent, 'kbEnableLlmProcessing', input.kb_enable_llm_processing);
  set(agent, 'kbLlmSystemPrompt', text(input.kb_llm_system_prompt));
  set(agent, 'endCallEnabled', input.end_call_enabled);
  set(agent, 'endCallMessage', text(input.end_call_message));
  set(agent, 'endCallInstructions', text(input.end_call_instructions));
  set(agent, 'transferEnabled', input.transfer_enabled);
  set(agent, 'transferNumber', text(input.transfer_number));
  set(agent, 'transferMessage', text(input.transfer_message));
  set(agent, 'transferInstructions', text(input.transfer_instructions));
  set(agent, 'transferMode', input.transfer_mode);
  set(agent, 'transferBriefingInstructions', text(input.transfer_briefing_instructions));
  set(agent, 'transferRingTimeoutSecs', input.transfer_ring_timeout_secs);
  set(agent, 'userIdleEnabled', input.user_idle_enabled);
  if (input.tool_ack_config !== undefined) agent.toolAckConfig = normalizeToolAck(input.tool_ack_config);
  if (input.turn_taking !== undefined)
    agent.turnTaking = mergeTurnTaking(agent.turnTaking, input.turn_taking);
  if (input.dtmf !== undefined) agent.dtmf = mergeDtmf(agent.dtmf, input.dtmf);
  if (input.analysis_config !== undefined)
    agent.analysisConfig = mergeAnalysis(agent.analysisConfig, input.analysis_config);
  if (input.handoffs !== undefined) agent.handoffs = normalizeHandoffs(input.handoffs);
  set(agent, 'sendDtmfEnabled', input.send_dtmf_enabled);
  // The list sent replaces the stored one; null: every built-in tool again.
  if (input.tools !== undefined) agent.tools = input.tools === null ? null : [...input.tools];
  set(agent, 'smsEnabled', input.sms_enabled);
  set(agent, 'smsAllowedRecipients', input.sms_allowed_recipients);
  set(agent, 'extractionEnabled', input.extraction_enabled);
  set(agent, 'maxCallDurationSecs', input.max_call_duration_secs);
  set(agent, 'backgroundAudioId', input.background_audio_id);
  if (input.background_audio_volume !== undefined) {
    agent.backgroundAudioVolume = input.background_audio_volume ?? AgentDefaults.backgroundAudioVolume;
  }
  if (input.transcriber !== undefined) agent.transcriber = normalizeTranscriber(input.transcriber);
  if (input.fallback_transcriber !== undefined)
    agent.fallbackTranscriber = normalizeTranscriber(input.fallback_transcriber);
  // Lists replace the stored ones whole; null clears.
  if (input.fallback_voice_ids !== undefined) agent.fallbackVoiceIds = [...(input.fallback_voice_ids ?? [])];
  if (input.dictionary_ids !== undefined) agent.dictionaryIds = [...(input.dictionary_ids ?? [])];
  if (input.model !== undefined) agent.model = input.model === null ? null : normalizeAgentModel(input.model);
  if (input.fallback_models !== undefined)
    agent.fallbackModels = (input.fallback_models ?? []).map(normalizeAgentModel);
}

/** Applies an update's own fields (the required ones of creation and the update-only flags). */
export function applyUpdate(agent: Agent, input: UpdateAgentDto): void {
  set(agent, 'agentName', input.agent_name);
  set(agent, 'prompt', input.prompt);
  set(agent, 'voiceId', input.voice_id);
  set(agent, 'agentType', input.agent_type);
  applySettings(agent, input);
}

/** The partner-facing record of an agent, every field at its effective value. */
export function toAgentDto(
  a: Agent,
  voice: Voice,
  extractionSets: AttachedExtractionSetDto[],
  documents: AgentDocumentDto[],
  customFunctions: AttachedCustomFunctionDto[],
): AgentDto {
  return {
    id: a.id,
    agent_name: a.agentName,
    prompt: a.prompt,
    agent_type: a.agentType,
    status: 'active',
    project_id: a.projectId,
    voice_id: a.voiceId,
    gender: voice.gender,
    voice: toVoiceSummaryDto(voice),
    spoken_languages: a.spokenLanguages.length ? [...a.spokenLanguages] : [...DEFAULT_SPOKEN_LANGUAGES],
    intro_message: a.introMessage,
    voicemail_detection_enabled: a.voicemailDetectionEnabled,
    screener_handling_enabled: a.screenerHandlingEnabled,
    voicemail_message: a.voicemailMessage,
    enable_recording: a.enableRecording,
    kb_threshold: a.kbThreshold,
    kb_include_summaries: a.kbIncludeSummaries,
    kb_result_format: a.kbResultFormat,
    kb_enable_llm_processing: a.kbEnableLlmProcessing,
    kb_llm_system_prompt: a.kbLlmSystemPrompt,
    end_call_enabled: a.endCallEnabled,
    end_call_message: a.endCallMessage,
    end_call_instructions: a.endCallInstructions,
    transfer_enabled: a.transferEnabled,
    transfer_number: a.transferNumber,
    transfer_message: a.transferMessage,
    transfer_instructions: a.transferInstructions,
    transfer_mode: a.transferMode,
    transfer_briefing_instructions: a.transferBriefingInstructions,
    transfer_ring_timeout_secs: a.transferRingTimeoutSecs,
    user_idle_enabled: a.userIdleEnabled,
    tool_ack_config: a.toolAckConfig,
    turn_taking: { ...a.turnTaking },
    dtmf: { ...a.dtmf },
    analysis_config: { ...a.analysisConfig },
    handoffs: a.handoffs.map((h) => ({ ...h, variables: h.variables && [...h.variables] })),
    send_dtmf_enabled: a.sendDtmfEnabled,
    tools: a.tools && [...a.tools],
    sms_enabled: a.smsEnabled,
    sms_allowed_recipients: a.smsAllowedRecipients,
    extraction_enabled: a.extractionEnabled,
    extraction_config: { keys: a.extractionConfig.keys },
    extraction_sets: extractionSets,
    custom_functions: customFunctions,
    max_call_duration_secs: a.maxCallDurationSecs,
    background_audio_id: a.backgroundAudioId,
    background_audio_volume: a.backgroundAudioVolume,
    webhooks_include_account_endpoints: a.webhooksIncludeAccountEndpoints,
    transcriber: a.transcriber,
    fallback_transcriber: a.fallbackTranscriber,
    fallback_voice_ids: [...a.fallbackVoiceIds],
    dictionary_ids: [...a.dictionaryIds],
    model: a.model && { ...a.model },
    fallback_models: a.fallbackModels.map((m) => ({ ...m })),
    documents,
    created_at: a.createdAt.toISOString(),
    updated_at: a.updatedAt.toISOString(),
  };
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
