import type { KbThreshold } from '../agents/agent-limits';
import type { SpokenLanguage } from '../agents/spoken-languages';
import type { CustomFunctionSpec } from '../agents/custom-functions';
import type { DtmfInputConfig } from '../agents/dtmf';
import type { ToolAckConfig } from '../agents/tool-ack-config';
import type { TurnTakingConfig } from '../agents/turn-taking';
import type { TranscriberSettings } from '../agents/transcriber';

/** The shape of the snapshots written now; older stored ones are read through upgradeAgentSnapshot. */
export const AGENT_SNAPSHOT_VERSION = 2;

/**
 * What a call needs of its agent, copied when the call starts so that edits during the call change nothing.
 * The calls service stores it on the call; the voice service receives it with the call's context. Its own
 * fields are camelCase as internal messages are; the configuration objects it carries (turn taking, key
 * presses, tool acknowledgements, custom functions, transcribers) are the agent's own, as the agents service
 * stores them.
 */
export interface AgentSnapshot {
  version: typeof AGENT_SNAPSHOT_VERSION;
  prompt: string;
  voiceId: string;
  spokenLanguages: SpokenLanguage[];
  introMessage: string | null;
  enableRecording: boolean;
  maxCallDurationSecs: number | null;
  endCallEnabled: boolean;
  endCallMessage: string | null;
  endCallInstructions: string | null;
  transferEnabled: boolean;
  transferNumber: string | null;
  transferMessage: string | null;
  transferInstructions: string | null;
  voicemailDetectionEnabled: boolean;
  voicemailMessage: string | null;
  userIdleEnabled: boolean;
  toolAckConfig: ToolAckConfig | null;
  backgroundAudioId: string | null;
  backgroundAudioVolume: number;
  kbThreshold: KbThreshold | null;
  kbIncludeSummaries: boolean;
  kbResultFormat: string | null;
  /** Documents are linked to the agent: the LLM gets the search_knowledge_base tool. */
  hasKnowledge: boolean;
  extractionEnabled: boolean;
  /** Endpointing and barge-in judging; absent on calls started before agents had it (the defaults apply). */
  turnTaking?: TurnTakingConfig;
  /**
   * The partner's functions attached to the agent, with the values the call uses (its timeout_ms is the one
   * the request is given); absent on calls started before agents had them.
   */
  customFunctions?: CustomFunctionSpec[];
  /** The caller's key presses as input; absent on calls started before agents had it (ignored then). */
  dtmf?: DtmfInputConfig;
  /** The model gets the send_dtmf tool; absent on calls started before agents had it (off then). */
  sendDtmfEnabled?: boolean;
  /** Voices to fall back to, in order, when the agent's voice's provider fails; absent on older calls. */
  fallbackVoiceIds?: string[];
  /** The agent's speech-to-text choice (null or absent: the deployment's default). */
  transcriber?: TranscriberSettings | null;
  fallbackTranscriber?: TranscriberSettings | null;
  /** The account's dictionaries attached to the agent. */
  dictionaryIds?: string[];
}

/**
 * The first shape of the snapshot, stored on calls started before it had a version: no version field, and the
 * public agent's snake_case names. Read only to be upgraded.
 */
export interface AgentSnapshotV1 {
  version?: undefined;
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
  has_knowledge: boolean;
  extraction_enabled: boolean;
  turn_taking?: TurnTakingConfig;
  custom_functions?: CustomFunctionSpec[];
  dtmf?: DtmfInputConfig;
  send_dtmf_enabled?: boolean;
  fallback_voice_ids?: string[];
  transcriber?: TranscriberSettings | null;
  fallback_transcriber?: TranscriberSettings | null;
  dictionary_ids?: string[];
}

/** A snapshot as a call may hold it: written now, or by a release before the current shape. */
export type StoredAgentSnapshot = AgentSnapshot | AgentSnapshotV1;

/**
 * The current shape of a stored snapshot, so a call started before a change of shape keeps its agent as it
 * was. Applied wherever a snapshot is read from storage or received from another service; a current one is
 * returned as it is.
 */
export function upgradeAgentSnapshot(stored: StoredAgentSnapshot): AgentSnapshot {
  if (stored.version === AGENT_SNAPSHOT_VERSION) return stored;
  const v1 = stored;
  const upgraded: AgentSnapshot = {
    version: AGENT_SNAPSHOT_VERSION,
    prompt: v1.prompt,
    voiceId: v1.voice_id,
    spokenLanguages: v1.spoken_languages,
    introMessage: v1.intro_message,
    enableRecording: v1.enable_recording,
    maxCallDurationSecs: v1.max_call_duration_secs,
    endCallEnabled: v1.end_call_enabled,
    endCallMessage: v1.end_call_message,
    endCallInstructions: v1.end_call_instructions,
    transferEnabled: v1.transfer_enabled,
    transferNumber: v1.transfer_number,
    transferMessage: v1.transfer_message,
    transferInstructions: v1.transfer_instructions,
    voicemailDetectionEnabled: v1.voicemail_detection_enabled,
    voicemailMessage: v1.voicemail_message,
    userIdleEnabled: v1.user_idle_enabled,
    toolAckConfig: v1.tool_ack_config,
    backgroundAudioId: v1.background_audio_id,
    backgroundAudioVolume: v1.background_audio_volume,
    kbThreshold: v1.kb_threshold,
    kbIncludeSummaries: v1.kb_include_summaries,
    kbResultFormat: v1.kb_result_format,
    hasKnowledge: v1.has_knowledge,
    extractionEnabled: v1.extraction_enabled,
  };
  // Fields a v1 snapshot may lack stay absent, so the reader's own defaults for older calls still apply.
  const optional: Partial<AgentSnapshot> = {
    turnTaking: v1.turn_taking,
    customFunctions: v1.custom_functions,
    dtmf: v1.dtmf,
    sendDtmfEnabled: v1.send_dtmf_enabled,
    fallbackVoiceIds: v1.fallback_voice_ids,
    transcriber: v1.transcriber,
    fallbackTranscriber: v1.fallback_transcriber,
    dictionaryIds: v1.dictionary_ids,
  };
  for (const [key, value] of Object.entries(optional))
    if (value !== undefined) Object.assign(upgraded, { [key]: value });
  return upgraded;
}
