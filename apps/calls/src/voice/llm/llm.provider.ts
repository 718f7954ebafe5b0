import { Provider } from '@nestjs/common';
import { CallsConfig } from '../../config/calls.config';
import { LLM_ADAPTER, LlmAdapter } from './llm-adapter';
import { OfflineLlm } from './offline-llm';
import { OpenAiCompatibleLlm } from './openai-compatible-llm';

/** OpenAI-compatible when LLM_BASE_URL is set, else the offline engine: everything runs without network. */
export const llmProvider: Provider = {
  provide: LLM_ADAPTER,
  inject: [CallsConfig],
  useFactory: (config: CallsConfig): LlmAdapter =>
    config.LLM_BASE_URL
      ? new OpenAiCompatibleLlm({
          baseUrl: config.LLM_BASE_URL,
          apiKey: config.LLM_API_KEY,
          model: config.LLM_MODEL,
          timeoutMs: config.LLM_TIMEOUT_MS,
        })
      : new OfflineLlm(),
};
