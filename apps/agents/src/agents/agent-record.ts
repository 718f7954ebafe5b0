import { AgentDocumentDto, AgentDto, AttachedCustomFunctionDto, AttachedExtractionSetDto } from '@vap/api';
import { DEFAULT_SPOKEN_LANGUAGES } from '@vap/messages';
import { Voice } from '../voices/entities/voice.entity';
import { toVoiceSummaryDto } from '../voices/voice-records';
import { Agent } from './entities/agent.entity';

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
    user_idle_enabled: a.userIdleEnabled,
    tool_ack_config: a.toolAckConfig,
    turn_taking: { ...a.turnTaking },
    dtmf: { ...a.dtmf },
    send_dtmf_enabled: a.sendDtmfEnabled,
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
    documents,
    created_at: a.createdAt.toISOString(),
    updated_at: a.updatedAt.toISOString(),
  };
}
