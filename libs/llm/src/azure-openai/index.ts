import { checkKeyByRequest } from '../key-check';
import { modelConfigOptions, OpenAiCompatibleChatModel } from '../openai-compatible-chat-model';
import { OPENAI_MODELS } from '../openai/openai-models';
import type { ModelCard, ModelConfig, ModelPlugin } from '../plugin';

/** The Azure OpenAI data-plane API version followed (the GA inference API of 2024-10-21). */
export const AZURE_OPENAI_API_VERSION = '2024-10-21';

/** The OpenAI models commonly deployed on Azure under their own names. */
const DEPLOYED_OPENAI_MODELS = ['gpt-4o-mini', 'gpt-4o', 'gpt-4.1', 'gpt-4.1-mini'];

/**
 * What an Azure OpenAI deployment can do. Deployments are named by the account, so any name is accepted with the
 * first card's capabilities; these are OpenAI's own cards of the models commonly deployed under their own names
 * (Azure OpenAI's model pages give the same context windows and output limits).
 */
export const AZURE_OPENAI_MODELS: readonly ModelCard[] = DEPLOYED_OPENAI_MODELS.map((id) => {
  const card = OPENAI_MODELS.find((m) => m.id === id);
  if (!card) throw new Error(`${id} is not an OpenAI model card`);
  return { ...card, label: `${card.label} deployment` };
});

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
