import { LanguageModel } from './language-model';
import { OfflineChatModel } from './offline-chat-model';
import { OpenAiCompatibleChatModel } from './openai-compatible-chat-model';

/** The LLM_* settings a service reads (calls and voice use the same names). */
export interface ChatModelSettings {
  LLM_BASE_URL?: string;
  LLM_API_KEY?: string;
  LLM_MODEL: string;
  LLM_TIMEOUT_MS: number;
}

/** OpenAI-compatible when LLM_BASE_URL is set, else the offline engine: everything runs without network. */
export function createChatModel(settings: ChatModelSettings): LanguageModel {
  return settings.LLM_BASE_URL
    ? new OpenAiCompatibleChatModel({
        baseUrl: settings.LLM_BASE_URL,
        apiKey: settings.LLM_API_KEY || undefined,
        model: settings.LLM_MODEL,
        timeoutMs: settings.LLM_TIMEOUT_MS,
      })
    : new OfflineChatModel();
}
