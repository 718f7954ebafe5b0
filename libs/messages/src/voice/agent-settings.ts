import type { KbThreshold } from '../agents/agent-limits';
import type { SpokenLanguage } from '../agents/spoken-languages';
import type { CustomFunctionSpec } from '../agents/custom-functions';
import type { DtmfInputConfig } from '../agents/dtmf';
import type { ToolAckConfig } from '../agents/tool-ack-config';
import type { TurnTakingConfig } from '../agents/turn-taking';
import type { TranscriberSettings } from '../agents/transcriber';

/**
 * What a call needs of its agent, copied when the call starts so that edits during the call change
 * nothing. The calls service stores it on the call; the voice service receives it with the call's context.
 * Its fields keep the public agent's snake_case names: it is a stored copy of those fields, not a message
 * of its own.
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
  tool_ack_config: ToolAckConfig | null;
  background_audio_id: string | null;
  background_audio_volume: number;
  kb_threshold: KbThreshold | null;
  kb_include_summaries: boolean;
  kb_result_format: string | null;
  /** Documents are linked to the agent: the LLM gets the search_knowledge_base tool. */
  has_knowledge: boolean;
  extraction_enabled: boolean;
  /** Endpointing and barge-in judging; absent on calls started before agents had it (the defaults apply). */
  turn_taking?: TurnTakingConfig;
  /** The partner's functions attached to the agent; absent on calls started before agents had them. */
  custom_functions?: CustomFunctionSpec[];
  /** The caller's key presses as input; absent on calls started before agents had it (ignored then). */
  dtmf?: DtmfInputConfig;
  /** The model gets the send_dtmf tool; absent on calls started before agents had it (off then). */
  send_dtmf_enabled?: boolean;
  /** Voices to fall back to, in order, when the agent's voice's provider fails; absent on older calls. */
  fallback_voice_ids?: string[];
  /** The agent's speech-to-text choice (null or absent: the deployment's default). */
  transcriber?: TranscriberSettings | null;
  fallback_transcriber?: TranscriberSettings | null;
  /** The account's dictionaries attached to the agent. */
  dictionary_ids?: string[];
}
