import type { AgentDto } from '@vap/api';
import type { AgentSettings, CustomFunctionSpec } from '@vap/messages';

/**
 * The agent's settings a call keeps, taken from the agent as it is when the call starts, with the custom
 * functions attached to it then (what the model is offered; their URLs and secrets stay in the agents service).
 */
export function agentSettingsOf(agent: AgentDto, customFunctions: CustomFunctionSpec[] = []): AgentSettings {
  return {
    prompt: agent.prompt,
    voice_id: agent.voice_id,
    spoken_languages: agent.spoken_languages,
    intro_message: agent.intro_message,
    enable_recording: agent.enable_recording,
    max_call_duration_secs: agent.max_call_duration_secs,
    end_call_enabled: agent.end_call_enabled,
    end_call_message: agent.end_call_message,
    end_call_instructions: agent.end_call_instructions,
    transfer_enabled: agent.transfer_enabled,
    transfer_number: agent.transfer_number,
    transfer_message: agent.transfer_message,
    transfer_instructions: agent.transfer_instructions,
    voicemail_detection_enabled: agent.voicemail_detection_enabled,
    voicemail_message: agent.voicemail_message,
    user_idle_enabled: agent.user_idle_enabled,
    tool_ack_config: agent.tool_ack_config,
    turn_taking: agent.turn_taking,
    dtmf: agent.dtmf,
    send_dtmf_enabled: agent.send_dtmf_enabled,
    background_audio_id: agent.background_audio_id,
    background_audio_volume: agent.background_audio_volume,
    kb_threshold: agent.kb_threshold,
    kb_include_summaries: agent.kb_include_summaries,
    kb_result_format: agent.kb_result_format,
    has_knowledge: agent.documents.length > 0,
    extraction_enabled: agent.extraction_enabled,
    custom_functions: customFunctions,
    // Speech choices: resolved into providers and keys when the call's media starts (agents.speech.plan).
    fallback_voice_ids: agent.fallback_voice_ids ?? [],
    transcriber: agent.transcriber ?? null,
    fallback_transcriber: agent.fallback_transcriber ?? null,
    dictionary_ids: agent.dictionary_ids ?? [],
  };
}
