import { Provider } from '@nestjs/common';
import { createChatModel } from '@vap/llm';
import { CallsConfig } from '../../config/calls.config';
import { LLM_ADAPTER, LlmAdapter } from './llm-adapter';

/** OpenAI-compatible when LLM_BASE_URL is set, else the offline engine: everything runs without network. */
export const llmProvider: Provider = {
  provide: LLM_ADAPTER,
  inject: [CallsConfig],
  useFactory: (config: CallsConfig): LlmAdapter => createChatModel(config),
};
