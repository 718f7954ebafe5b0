import { createChatModel } from './create-chat-model';
import { OfflineChatModel } from './offline-chat-model';
import { OpenAiCompatibleChatModel } from './openai-compatible-chat-model';

describe('createChatModel', () => {
  it('is the offline engine without LLM_BASE_URL, an OpenAI-compatible client with it', () => {
    expect(createChatModel({ LLM_MODEL: 'gpt-4o-mini', LLM_TIMEOUT_MS: 1000 })).toBeInstanceOf(
      OfflineChatModel,
    );
    const online = createChatModel({
      LLM_BASE_URL: 'http://127.0.0.1:1/v1',
      LLM_API_KEY: 'k',
      LLM_MODEL: 'gpt-4o-mini',
      LLM_TIMEOUT_MS: 1000,
    });
    expect(online).toBeInstanceOf(OpenAiCompatibleChatModel);
    expect(online.model).toBe('gpt-4o-mini');
  });
});
