import {
  AgentSettingsDto,
  AnalysisConfigInputDto,
  HandoffInputDto,
  CreateAgentDto,
  DtmfInputDto,
  normalizeAgentModel,
  normalizeTranscriber,
  ToolAckConfigDto,
  ToolAckConfigInputDto,
  TurnTakingInputDto,
  UpdateAgentDto,
} from '@vap/api';
import {
  AgentDefaults,
  AnalysisConfig,
  AnalysisDefaults,
  HANDOFF_LAST_TURNS_DEFAULT,
  HandoffConfig,
  DtmfDefaults,
  DtmfInputConfig,
  ToolAckDefaults,
  TurnTakingConfig,
  TurnTakingDefaults,
} from '@vap/messages';
import { Agent } from './entities/agent.entity';

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
