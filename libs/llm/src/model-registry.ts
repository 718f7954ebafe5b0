// The model providers, one plugin each (its folder holds the adapter, its catalog cards and its key check). A
// provider's settings name it: the platform's own key, base URL and tiers (MODEL_<NAME>_*), a partner's key.
import type { AgentModelProvider, ModelProviderName } from '@vap/messages';
import { anthropicModelPlugin } from './anthropic';
import { azureOpenAiModelPlugin } from './azure-openai';
import { customModelPlugin } from './custom';
import { geminiModelPlugin } from './gemini';
import { openAiModelPlugin } from './openai';
import {
  deepSeekModelPlugin,
  fireworksModelPlugin,
  groqModelPlugin,
  mistralModelPlugin,
  openRouterModelPlugin,
  togetherModelPlugin,
} from './openai-compatible';
import type { ModelCard, ModelPlugin } from './plugin';

/** Every model provider's plugin by name, `custom` (the account's own server) included. */
export const MODEL_PLUGINS: Readonly<Record<ModelProviderName | 'custom', ModelPlugin>> = {
  openai: openAiModelPlugin,
  anthropic: anthropicModelPlugin,
  google: geminiModelPlugin,
  azure_openai: azureOpenAiModelPlugin,
  groq: groqModelPlugin,
  together: togetherModelPlugin,
  fireworks: fireworksModelPlugin,
  openrouter: openRouterModelPlugin,
  deepseek: deepSeekModelPlugin,
  mistral: mistralModelPlugin,
  custom: customModelPlugin,
};

/** The plugin of a provider name (`offline` and unknown names have none). */
export function modelPlugin(name: string): ModelPlugin | undefined {
  return Object.prototype.hasOwnProperty.call(MODEL_PLUGINS, name)
    ? MODEL_PLUGINS[name as ModelProviderName | 'custom']
    : undefined;
}

/** The offline engine's one catalog card: no network, any language, tools (its rules), no limits that matter. */
export const OFFLINE_MODEL_CARD: ModelCard = {
  id: 'offline',
  label: 'Offline engine',
  contextWindow: 1_000_000,
  maxOutputTokens: 4096,
  tools: true,
  speechToSpeech: false,
  languages: [],
  temperature: { min: 0, max: 2 },
};

/**
 * What a provider's model can do, by the provider's catalog: its own card, or (providers that take any model id:
 * Azure OpenAI deployments, OpenRouter, custom servers) the provider's first card under the id asked for.
 * Undefined for a model the provider does not offer.
 */
export function modelCard(provider: AgentModelProvider | string, model: string): ModelCard | undefined {
  if (provider === 'offline') return model === OFFLINE_MODEL_CARD.id ? OFFLINE_MODEL_CARD : undefined;
  const plugin = modelPlugin(provider);
  if (!plugin) return undefined;
  const card = plugin.models.find((m) => m.id === model);
  if (card) return card;
  if (!plugin.anyModel || !ANY_MODEL_ID.test(model) || !plugin.models[0]) return undefined;
  return { ...plugin.models[0], id: model, label: model };
}

/** The shape of a model id an anyModel provider accepts (the agent's model.model). */
export const ANY_MODEL_ID = /^[A-Za-z0-9][A-Za-z0-9._:/@-]{0,127}$/;
