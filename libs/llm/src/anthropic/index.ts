import { apiBaseUrl } from '../api-base-url';
import { checkKeyByRequest } from '../key-check';
import type { ModelPlugin } from '../plugin';
import { AnthropicChatModel } from './anthropic-chat-model';
import { ANTHROPIC_MODELS } from './anthropic-models';
import { ANTHROPIC_VERSION } from './anthropic-wire';

export { ANTHROPIC_MODELS } from './anthropic-models';
export { AnthropicChatModel, ANTHROPIC_DEFAULT_MAX_TOKENS } from './anthropic-chat-model';
export { ANTHROPIC_VERSION } from './anthropic-wire';

/**
 * Anthropic's Messages API (https://docs.anthropic.com/en/api/messages, anthropic-version 2023-06-01), streamed:
 * the system prompt as `system`, tools as `input_schema`, tool calls and results as tool_use / tool_result blocks,
 * `max_tokens` always sent. The key goes in `x-api-key`; it is checked with GET /v1/models.
 */
export const anthropicModelPlugin: ModelPlugin = {
  name: 'anthropic',
  label: 'Anthropic',
  defaultBaseUrl: 'https://api.anthropic.com/v1',
  models: ANTHROPIC_MODELS,
  create: (config) => new AnthropicChatModel(config),
  checkKey: ({ apiKey, baseUrl, timeoutMs }, signal) =>
    checkKeyByRequest(
      `${apiBaseUrl(baseUrl)}/models`,
      { headers: { 'x-api-key': apiKey, 'anthropic-version': ANTHROPIC_VERSION } },
      timeoutMs,
      signal,
    ),
};
