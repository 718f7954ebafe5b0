import type { ChatModel } from './chat-model';

/** The settings the chat model reads (the services' LLM_* settings). */
export interface ChatModelSettings {
  LLM_BASE_URL?: string;
  LLM_API_KEY?: string;
  LLM_MODEL: string;
  LLM_TIMEOUT_MS: number;
}

/** OpenAI-compatible when LLM_BASE_URL is set, else the offline engine; the engines land separately. */
export function createChatModel(settings: ChatModelSettings): ChatModel {
  void settings;
  throw new Error('chat models not built');
}
