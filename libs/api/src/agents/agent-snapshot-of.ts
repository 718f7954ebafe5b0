import {
  AGENT_SNAPSHOT_VERSION,
  AgentDefaults,
  analysisSnapshotOf,
  handoffSnapshotOf,
  type AgentSnapshot,
  customFunctionSnapshotOf,
  type CustomFunctionSpec,
  dtmfSnapshotOf,
  toolAckSnapshotOf,
  turnTakingSnapshotOf,
} from '@vap/messages';
import type { AgentDto } from './agent.dto';
import { agentModelSettingsOf } from './agent-model.dto';

/**
 * The snapshot a call keeps of its agent, taken from the agent's record as it is when the call starts, with
 * the custom functions attached to it then (what the model is offered and the values the call uses, such as
 * each function's timeout; their URLs and secrets stay in the agents service). The one place the record's
 * fields, and those of the configuration objects it carries, become the snapshot's camelCase ones.
 */
export function agentSnapshotOf(agent: AgentDto, customFunctions: CustomFunctionSpec[] = []): AgentSnapshot {
  return {
    version: AGENT_SNAPSHOT_VERSION,
    prompt: agent.prompt,
    voiceId: agent.voice_id,
    spokenLanguages: agent.spoken_languages,
    introMessage: agent.intro_message,
    enableRecording: agent.enable_recording,
    maxCallDurationSecs: agent.max_call_duration_secs,
    endCallEnabled: agent.end_call_enabled,
    endCallMessage: agent.end_call_message,
    endCallInstructions: agent.end_call_instructions,
    transferEnabled: agent.transfer_enabled,
    transferNumber: agent.transfer_number,
    transferMessage: agent.transfer_message,
    transferInstructions: agent.transfer_instructions,
    voicemailDetectionEnabled: agent.voicemail_detection_enabled,
    voicemailMessage: agent.voicemail_message,
    userIdleEnabled: agent.user_idle_enabled,
    toolAckConfig: agent.tool_ack_config ? toolAckSnapshotOf(agent.tool_ack_config) : null,
    // Absent from a record that predates them, as they were before the snapshot converted them.
    turnTaking: agent.turn_taking ? turnTakingSnapshotOf(agent.turn_taking) : undefined,
    dtmf: agent.dtmf ? dtmfSnapshotOf(agent.dtmf) : undefined,
    sendDtmfEnabled: agent.send_dtmf_enabled,
    tools: agent.tools ?? null,
    smsEnabled: agent.sms_enabled,
    smsAllowedRecipients: agent.sms_allowed_recipients,
    backgroundAudioId: agent.background_audio_id,
    backgroundAudioVolume: agent.background_audio_volume,
    kbThreshold: agent.kb_threshold,
    kbIncludeSummaries: agent.kb_include_summaries,
    kbResultFormat: agent.kb_result_format,
    hasKnowledge: agent.documents.length > 0,
    extractionEnabled: agent.extraction_enabled,
    analysis: agent.analysis_config ? analysisSnapshotOf(agent.analysis_config) : undefined,
    handoffs: (agent.handoffs ?? []).map(handoffSnapshotOf),
    transfer: {
      mode: agent.transfer_mode ?? 'cold',
      briefingInstructions: agent.transfer_briefing_instructions ?? null,
      ringTimeoutSecs: agent.transfer_ring_timeout_secs ?? AgentDefaults.transferRingTimeoutSecs,
    },
    customFunctions: customFunctions.map(customFunctionSnapshotOf),
    // Speech choices: resolved into providers and keys when the call's media starts (agents.speech.plan).
    fallbackVoiceIds: agent.fallback_voice_ids ?? [],
    transcriber: agent.transcriber ?? null,
    fallbackTranscriber: agent.fallback_transcriber ?? null,
    dictionaryIds: agent.dictionary_ids ?? [],
    // The model: resolved into providers and keys when the call starts (agents.model.plan). A handoff target's
    // snapshot carries its own.
    model: agent.model ? agentModelSettingsOf(agent.model) : null,
    fallbackModels: (agent.fallback_models ?? []).map(agentModelSettingsOf),
  };
}
