import type { AgentDto } from '../agents';
import type { KbThreshold } from '../agents/agent-limits';
import type { SpokenLanguage } from '../agents/spoken-languages';
import type { ToolAckConfigDto } from '../agents/tool-ack-config.dto';

/**
 * What a call needs of its agent, copied when the call starts so that edits during the call change
 * nothing. The calls service stores it on the call; the voice service receives it with the call's context.
 */
export interface AgentSettings {
  prompt: string;
  voice_id: string;
  spoken_languages: SpokenLanguage[];
  intro_message: string | null;
  enable_recording: boolean;
  max_call_duration_secs: number | null;
  end_call_enabled: boolean;
  end_call_message: string | null;
  end_call_instructions: string | null;
  transfer_enabled: boolean;
  transfer_number: string | null;
  transfer_message: string | null;
  transfer_instructions: string | null;
  voicemail_detection_enabled: boolean;
  voicemail_message: string | null;
  user_idle_enabled: boolean;
  tool_ack_config: ToolAckConfigDto | null;
  background_audio_id: string | null;
  background_audio_volume: number;
  kb_threshold: KbThreshold | null;
  kb_include_summaries: boolean;
  kb_result_format: string | null;
  /** Documents are linked to the agent: the LLM gets the search_knowledge_base tool. */
  has_knowledge: boolean;
  extraction_enabled: boolean;
}

export function agentSettingsOf(agent: AgentDto): AgentSettings {
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
    background_audio_id: agent.background_audio_id,
    background_audio_volume: agent.background_audio_volume,
    kb_threshold: agent.kb_threshold,
    kb_include_summaries: agent.kb_include_summaries,
    kb_result_format: agent.kb_result_format,
    has_knowledge: agent.documents.length > 0,
    extraction_enabled: agent.extraction_enabled,
  };
}
