import { checkKeyByRequest } from '../key-check';
import { modelConfigOptions, OpenAiCompatibleChatModel } from '../openai-compatible-chat-model';
import type { ModelCard, ModelConfig, ModelPlugin } from '../plugin';

/** The Azure OpenAI data-plane API version followed (the GA inference API of 2024-10-21). */
export const AZURE_OPENAI_API_VERSION = '2024-10-21';

const CHAT_TEMPERATURE = { min: 0, max: 2 };

/**
 * What an Azure OpenAI deployment can do. Deployments are named by the account, so any name is accepted with the
 * first card's capabilities; these are the models commonly deployed under their own names (Azure OpenAI's model
 * pages: context windows and output limits as for OpenAI's own).
 */
export const AZURE_OPENAI_MODELS: readonly ModelCard[] = [
  {
    id: 'gpt-4o-mini',
    label: 'GPT-4o mini deployment',
    contextWindow: 128_000,
    maxOutputTokens: 16_384,
    tools: true,
    speechToSpeech: false,
    languages: [],
    temperature: CHAT_TEMPERATURE,
  },
  {
    id: 'gpt-4o',
    label: 'GPT-4o deployment',
    contextWindow: 128_000,
    maxOutputTokens: 16_384,
    tools: true,
    speechToSpeech: false,
    languages: [],
    temperature: CHAT_TEMPERATURE,
  },
  {
    id: 'gpt-4.1',
    label: 'GPT-4.1 deployment',
    contextWindow: 1_047_576,
    maxOutputTokens: 32_768,
    tools: true,
    speechToSpeech: false,
    languages: [],
    temperature: CHAT_TEMPERATURE,
  },
  {
    id: 'gpt-4.1-mini',
    label: 'GPT-4.1 mini deployment',
    contextWindow: 1_047_576,
    maxOutputTokens: 32_768,
    tools: true,
    speechToSpeech: false,
    languages: [],
    temperature: CHAT_TEMPERATURE,
  },
];

/**
 * The resource's endpoint, `https://{resource}.openai.azure.com`, from the base URL (the default's `{region}`
 * filled with the credential's resource name, or a setting's own URL), without a trailing slash or `/openai`.
 */
export function azureOpenAiEndpoint(baseUrl: string, region?: string): string {
  const filled = region ? baseUrl.replace('{region}', encodeURIComponent(region)) : baseUrl;
  return filled
    .trim()
    .replace(/\/+$/, '')
    .replace(/\/openai$/, '');
}

/** POST target of a deployment's chat completions. */
export function azureOpenAiChatUrl(config: Pick<ModelConfig, 'baseUrl' | 'region' | 'model'>): string {
  return (
    `${azureOpenAiEndpoint(config.baseUrl, config.region)}/openai/deployments/` +
    `${encodeURIComponent(config.model)}/chat/completions?api-version=${AZURE_OPENAI_API_VERSION}`
  );
}

/**
 * Azure OpenAI (https://learn.microsoft.com/azure/ai-services/openai/reference, api-version 2024-10-21): a
 * resource's deployments' chat completions, streamed, the key in the `api-key` header; the model is the
 * deployment's name (any name: anyModel). Usage comes in the last chunk (`stream_options.include_usage`); the
 * reply's length is `max_tokens`.
 */
export const azureOpenAiModelPlugin: ModelPlugin = {
  name: 'azure_openai',
  label: 'Azure OpenAI',
  defaultBaseUrl: 'https://{region}.openai.azure.com',
  needsRegion: true,
  anyModel: true,
  models: AZURE_OPENAI_MODELS,
  create: (config) =>
    new OpenAiCompatibleChatModel({
      ...modelConfigOptions(config),
      chatUrl: azureOpenAiChatUrl(config),
      keyHeader: 'api-key',
      streamUsage: true,
      serverName: 'Azure OpenAI',
    }),
  checkKey: ({ apiKey, baseUrl, region, timeoutMs }, signal) =>
    checkKeyByRequest(
      `${azureOpenAiEndpoint(baseUrl, region)}/openai/models?api-version=${AZURE_OPENAI_API_VERSION}`,
      { headers: { 'api-key': apiKey } },
      timeoutMs,
      signal,
    ),
};
