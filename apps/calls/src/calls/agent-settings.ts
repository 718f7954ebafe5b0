import { AgentDto } from '@vap/contracts';

/** What a call needs of its agent, copied at start so that edits during the call change nothing. */
export interface AgentSettings {
  prompt: string;
  intro_message: string | null;
  enable_recording: boolean;
  max_call_duration_secs: number | null;
  transfer_enabled: boolean;
  transfer_number: string | null;
  transfer_message: string | null;
  voicemail_detection_enabled: boolean;
  voicemail_message: string | null;
  end_call_message: string | null;
  extraction_enabled: boolean;
}

export function agentSettingsOf(agent: AgentDto): AgentSettings {
  return {
    prompt: agent.prompt,
    intro_message: agent.intro_message,
    enable_recording: agent.enable_recording,
    max_call_duration_secs: agent.max_call_duration_secs,
    transfer_enabled: agent.transfer_enabled,
    transfer_number: agent.transfer_number,
    transfer_message: agent.transfer_message,
    voicemail_detection_enabled: agent.voicemail_detection_enabled,
    voicemail_message: agent.voicemail_message,
    end_call_message: agent.end_call_message,
    extraction_enabled: agent.extraction_enabled,
  };
}
