// A call on a speech-to-speech model (OpenAI Realtime, Gemini Live): the conversation's second driver.
export {
  createRealtimeConversation,
  RealtimeUnavailable,
  CONTEXT_LINES,
  type RealtimeConversationOptions,
} from './realtime-conversation';
export {
  isRealtimeModel,
  realtimeModelOf,
  realtimeModelsOf,
  realtimeSpeechProviders,
  type RealtimeModel,
} from './realtime-model';
