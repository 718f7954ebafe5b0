/** Field limits and defaults of an agent, from the contract's Agent table. */
export const AGENT_TYPES = ['inbound', 'outbound'] as const;
export type AgentType = (typeof AGENT_TYPES)[number];

export const KB_THRESHOLDS = ['low', 'medium', 'high'] as const;
export type KbThreshold = (typeof KB_THRESHOLDS)[number];

export const AGENT_STATUSES = ['active'] as const;
export type AgentStatus = (typeof AGENT_STATUSES)[number];

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
  userIdleEnabled: true,
  sendDtmfEnabled: false,
  extractionEnabled: true,
  maxCallDurationSecs: 600,
  backgroundAudioVolume: 0.3,
  webhooksIncludeAccountEndpoints: true,
} as const;
