/** Field limits and defaults of an agent, from the contract's Agent table. */
export const AGENT_TYPES = ['inbound', 'outbound'] as const;
export type AgentType = (typeof AGENT_TYPES)[number];

export const KB_THRESHOLDS = ['low', 'medium', 'high'] as const;
export type KbThreshold = (typeof KB_THRESHOLDS)[number];

export const AGENT_STATUSES = ['active'] as const;
export type AgentStatus = (typeof AGENT_STATUSES)[number];

/**
 * How the transfer_call tool hands the call to a human: cold (the carrier dials the number on the caller's leg),
 * warm (the agent calls the human first, briefs them and bridges the caller once they accept; if they do not, the
 * agent tells the caller and says goodbye), warm_handback (as warm, but the agent carries on with the caller).
 */
export const TRANSFER_MODES = ['cold', 'warm', 'warm_handback'] as const;
export type TransferMode = (typeof TRANSFER_MODES)[number];

export const AgentLimits = {
  nameMax: 50,
  promptMax: 120_000,
  messageMax: 500,
  instructionsMax: 2000,
  kbResultFormatMax: 2000,
  kbSystemPromptMax: 120_000,
  maxCallDurationMin: 60,
  maxCallDurationMax: 3600,
  searchMax: 50,
  transferRingTimeoutMin: 5,
  transferRingTimeoutMax: 60,
} as const;

export const AgentDefaults = {
  voicemailDetectionEnabled: true,
  screenerHandlingEnabled: false,
  enableRecording: true,
  kbThreshold: 'medium' as KbThreshold,
  kbIncludeSummaries: false,
  kbEnableLlmProcessing: false,
  endCallEnabled: true,
  transferEnabled: false,
  transferMode: 'cold' as TransferMode,
  transferRingTimeoutSecs: 20,
  userIdleEnabled: true,
  sendDtmfEnabled: false,
  smsEnabled: false,
  smsAllowedRecipients: 'caller' as 'caller' | 'any',
  extractionEnabled: true,
  maxCallDurationSecs: 600,
  backgroundAudioVolume: 0.3,
  webhooksIncludeAccountEndpoints: true,
} as const;
