// The conversation pipeline of one live call, as the voice service's media sessions use it.
export * from './conversation-contract';
export type { CallPlatform, CallRecord, CallCarrier, AgentServices } from './call-platform';
export { createConversation, DEFAULT_PROVIDER_TIMEOUT_MS } from './conversation';
export { APOLOGY_TIMEOUT_MS, FAREWELL_LIMIT_MS, FAREWELL_START_LIMIT_MS } from './call-lifecycle';
export { Phrases } from './phrases';
export { IDLE_REPROMPT_MS } from './idle/idle-controller';
export { WRAP_UP_LEAD_SECS, CAP_FAREWELL_LEAD_MS } from './limits/call-cap';
export { PRE_ROLL_MS } from './caller-input';
export { ConsultConversation } from './consult/consult-conversation';
export type { AgentModel } from './model-round';
export { ProviderFailure } from './provider-failure';
export { MARK_GRACE_MS } from './agent-speech';
export {
  backgroundAudioFor,
  warmBackgroundAudio,
  ambienceClip,
  AMBIENCE_CLIP_SECONDS,
  BACKGROUND_AUDIO_IDS,
} from './background-audio';
export { buildSystemPrompt, substituteVariables } from './prompt';
export {
  conversationTools,
  formatKnowledgeResults,
  toolAckPhrase,
  ToolRegistry,
  customFunctionTool,
  END_CALL_TOOL,
  TRANSFER_CALL_TOOL,
  SEARCH_KNOWLEDGE_TOOL,
  OPT_OUT_TOOL,
} from './tools';
export { dtmfRouteOf, SEND_DTMF_TOOL, type DtmfRoute } from './dtmf/send-dtmf';
export type { ConversationTool, ToolTurn, ToolRun, ToolInvocation } from './tools';
