import type { AgentModelSettings } from './model-plan';
import type { KbThreshold, TransferMode } from '../agents/agent-limits';
import type { AnalysisSnapshot } from '../agents/analysis';
import type { HandoffSnapshot } from '../agents/handoffs';
import type { SpokenLanguage } from '../agents/spoken-languages';
import {
  customFunctionSnapshotOf,
  type CustomFunctionSnapshot,
  type CustomFunctionSpec,
} from '../agents/custom-functions';
import { dtmfSnapshotOf, type DtmfInputConfig, type DtmfSnapshot } from '../agents/dtmf';
import { toolAckSnapshotOf, type ToolAckConfig, type ToolAckSnapshot } from '../agents/tool-ack-config';
import { turnTakingSnapshotOf, type TurnTakingConfig, type TurnTakingSnapshot } from '../agents/turn-taking';
import type { TranscriberSettings } from '../agents/transcriber';

/** The shape of the snapshots written now; older stored ones are read through upgradeAgentSnapshot. */
export const AGENT_SNAPSHOT_VERSION = 3;

/**
 * What a call needs of its agent, copied when the call starts so that edits during the call change nothing.
 * The calls service stores it on the call; the voice service receives it with the call's context. camelCase all
 * the way down, as internal messages are (the agents service builds it from the agent's row: agentSnapshotOf);
 * only the transcribers' provider options keep the providers' own names, as data.
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
  toolAckConfig: ToolAckSnapshot | null;
  backgroundAudioId: string | null;
  backgroundAudioVolume: number;
  kbThreshold: KbThreshold | null;
  kbIncludeSummaries: boolean;
  kbResultFormat: string | null;
  /** Documents are linked to the agent: the LLM gets the search_knowledge_base tool. */
  hasKnowledge: boolean;
  extractionEnabled: boolean;
  /** Endpointing and barge-in judging; absent on calls started before agents had it (the defaults apply). */
  turnTaking?: TurnTakingSnapshot;
  /**
   * The partner's functions attached to the agent, with the values the call uses (its timeoutMs is the one
   * the request is given); absent on calls started before agents had them.
   */
  customFunctions?: CustomFunctionSnapshot[];
  /** The caller's key presses as input; absent on calls started before agents had it (ignored then). */
  dtmf?: DtmfSnapshot;
  /** The model gets the send_dtmf tool; absent on calls started before agents had it (off then). */
  sendDtmfEnabled?: boolean;
  /** The model gets the send_sms tool; absent on calls started before agents had it (off then). */
  smsEnabled?: boolean;
  /** Whom send_sms may text (SmsRecipientRule); absent: the other party of the call only. */
  smsAllowedRecipients?: 'caller' | 'any';
  /** Voices to fall back to, in order, when the agent's voice's provider fails; absent on older calls. */
  fallbackVoiceIds?: string[];
  /** The agent's speech-to-text choice (null or absent: the deployment's default). */
  transcriber?: TranscriberSettings | null;
  fallbackTranscriber?: TranscriberSettings | null;
  /** The account's dictionaries attached to the agent. */
  dictionaryIds?: string[];
  /** Post-call analysis (summary, success evaluation); absent on calls started before agents had it (none then). */
  analysis?: AnalysisSnapshot;
  /** The agents this one may hand the call to; absent on calls started before agents had them (none then). */
  handoffs?: HandoffSnapshot[];
  /** How transfer_call hands the call over; absent on calls started before agents had it (cold then). */
  transfer?: TransferSnapshot;
  /**
   * The built-in tools the model may be offered (the agent's `tools`), each still only when its settings turn it
   * on; null or absent (calls started before agents had it): every one its settings turn on.
   */
  tools?: string[] | null;
  /** The agent's model (null or absent: the deployment's default model). */
  model?: AgentModelSettings | null;
  /** Models to fall back to, in order; absent on calls started before agents had them (none then). */
  fallbackModels?: AgentModelSettings[];
}

/** The agent's transfer settings beyond the number and messages. */
export interface TransferSnapshot {
  mode: TransferMode;
  /** What the briefing the human hears should cover (warm modes); null: the platform's default. */
  briefingInstructions: string | null;
  /** How long the human's leg rings before the transfer counts as not answered (warm modes). */
  ringTimeoutSecs: number;
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

/**
 * The second shape: versioned, its own fields camelCase, but the configuration objects it carries (turn taking,
 * key presses, tool acknowledgements, custom functions) still the public agent's snake_case ones. Read only to
 * be upgraded.
 */
export type AgentSnapshotV2 = Omit<
  AgentSnapshot,
  'version' | 'toolAckConfig' | 'turnTaking' | 'customFunctions' | 'dtmf'
> & {
  version: 2;
  toolAckConfig: ToolAckConfig | null;
  turnTaking?: TurnTakingConfig;
  customFunctions?: CustomFunctionSpec[];
  dtmf?: DtmfInputConfig;
};

/** A snapshot as a call may hold it: written now, or by a release before the current shape. */
export type StoredAgentSnapshot = AgentSnapshot | AgentSnapshotV2 | AgentSnapshotV1;

/**
 * The current shape of a stored snapshot, so a call started before a change of shape keeps its agent as it
 * was. Applied wherever a snapshot is read from storage or received from another service; a current one is
 * returned as it is.
 */
export function upgradeAgentSnapshot(stored: StoredAgentSnapshot): AgentSnapshot {
  if (stored.version === AGENT_SNAPSHOT_VERSION) return stored;
  return v3Of(stored.version === 2 ? stored : v2Of(stored));
}

/** v2 to v3: the configuration objects it carries become camelCase; absent ones stay absent. */
function v3Of(v2: AgentSnapshotV2): AgentSnapshot {
  const { toolAckConfig, turnTaking, customFunctions, dtmf, ...rest } = v2;
  const upgraded: AgentSnapshot = {
    ...rest,
    version: AGENT_SNAPSHOT_VERSION,
    toolAckConfig: toolAckConfig ? toolAckSnapshotOf(toolAckConfig) : null,
  };
  if (turnTaking !== undefined) upgraded.turnTaking = turnTakingSnapshotOf(turnTaking);
  if (customFunctions !== undefined) upgraded.customFunctions = customFunctions.map(customFunctionSnapshotOf);
  if (dtmf !== undefined) upgraded.dtmf = dtmfSnapshotOf(dtmf);
  return upgraded;
}

/** v1 to v2: the snapshot's own fields become camelCase and it gets a version. */
function v2Of(v1: AgentSnapshotV1): AgentSnapshotV2 {
  const upgraded: AgentSnapshotV2 = {
    version: 2,
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
  const optional: Partial<AgentSnapshotV2> = {
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
