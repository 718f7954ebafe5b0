import { apiBaseUrl } from '../api-base-url';
import { checkKeyByRequest } from '../key-check';
import { modelConfigOptions, OpenAiCompatibleChatModel } from '../openai-compatible-chat-model';
import type { ModelPlugin } from '../plugin';
import { OPENAI_MODELS } from './openai-models';
import { SpeechToSpeechOnlyModel } from './speech-to-speech-only-model';

export { OPENAI_MODELS, OPENAI_REALTIME_VOICES } from './openai-models';
export { SpeechToSpeechOnlyModel } from './speech-to-speech-only-model';

/**
 * OpenAI's Chat Completions API (https://platform.openai.com/docs/api-reference/chat, streamed): text and tool
 * calls as they stream, the reply's usage in the last chunk (`stream_options.include_usage`), the reply's length
 * as `max_completion_tokens`. Its Realtime models are listed for the catalog; the realtime driver runs them. The
 * same key serves OpenAI speech.
 */
export const openAiModelPlugin: ModelPlugin = {
  name: 'openai',
  label: 'OpenAI',
  defaultBaseUrl: 'https://api.openai.com/v1',
  models: OPENAI_MODELS,
  create: (config) =>
    OPENAI_MODELS.find((m) => m.id === config.model)?.speechToSpeech
      ? new SpeechToSpeechOnlyModel(config.model, 'OpenAI')
      : new OpenAiCompatibleChatModel({
          ...modelConfigOptions(config),
          streamUsage: true,
          maxTokensParameter: 'max_completion_tokens',
          serverName: 'OpenAI',
        }),
  checkKey: ({ apiKey, baseUrl, timeoutMs }, signal) =>
    checkKeyByRequest(
      `${apiBaseUrl(baseUrl)}/models`,
      { headers: { authorization: `Bearer ${apiKey}` } },
      timeoutMs,
      signal,
    ),
};
