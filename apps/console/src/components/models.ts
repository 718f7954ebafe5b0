// The models an agent may think with, as the catalog (GET /models) tells them: names and labels for pages that
// show a model (the builder, the agents list, a transcript line, a call's model usage), never a bare id where the
// catalog has a name.
import { v2 } from '../api.js';

/** How an account can use a model: the offline engine, its own key, the platform's key; null: it cannot. */
export type ModelAvailability = 'offline' | 'account_key' | 'platform' | null;

/** One model of GET /models. */
export interface CatalogModel {
  provider: string;
  provider_label: string;
  model: string;
  label: string;
  /** The provider takes any model id of the right shape (Azure OpenAI deployments, OpenRouter, your server). */
  any_model: boolean;
  /** Speech-to-speech models: the provider voices `model.voice` may name. */
  voices?: string[];
  capabilities: { tools: boolean; streaming: boolean; speech_to_speech: boolean; languages: string[] };
  context_window: number;
  parameters: { temperature_min: number; temperature_max: number; max_tokens_max: number };
  availability: ModelAvailability;
  unavailable_reason: string | null;
}

/** The shape of a model id the any-model providers take (the API's rule). */
export const ANY_MODEL_ID = /^[A-Za-z0-9][A-Za-z0-9._:/@-]{0,127}$/;

/**
 * Providers by the names people know them, for what the catalog may not list (a transcript line of `platform`,
 * the deployment's default model; a provider the catalog could not be read for).
 */
const PROVIDER_LABELS: Record<string, string> = {
  platform: 'Deployment default model',
  offline: 'Offline engine',
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  google: 'Google Gemini',
  azure_openai: 'Azure OpenAI',
  groq: 'Groq',
  together: 'Together AI',
  fireworks: 'Fireworks AI',
  openrouter: 'OpenRouter',
  deepseek: 'DeepSeek',
  mistral: 'Mistral AI',
  custom: 'Custom model server',
};

export function modelProviderLabel(provider: string, catalog: CatalogModel[] = []): string {
  return (
    catalog.find((m) => m.provider === provider)?.provider_label ?? PROVIDER_LABELS[provider] ?? provider
  );
}

/** The catalog's entry of a model; for an any-model provider's other ids, its first card under that id. */
export function catalogEntry(
  catalog: CatalogModel[],
  provider: string,
  model: string,
): CatalogModel | undefined {
  const own = catalog.find((m) => m.provider === provider && m.model === model);
  if (own) return own;
  const first = catalog.find((m) => m.provider === provider);
  if (!first?.any_model || !ANY_MODEL_ID.test(model)) return undefined;
  return { ...first, model, label: model };
}

/**
 * A model as a person reads it: "Groq · Llama 3.3 70B Versatile"; the offline engine alone; the deployment's
 * default with its model id; a model the catalog does not name by its id.
 */
export function modelName(provider: string, model: string | null | undefined, catalog: CatalogModel[] = []) {
  if (provider === 'offline') return PROVIDER_LABELS.offline;
  const providerName = modelProviderLabel(provider, catalog);
  if (!model) return providerName;
  const label = catalog.find((m) => m.provider === provider && m.model === model)?.label ?? model;
  return `${providerName} · ${label}`;
}

/** Who pays the provider for a model, in words (a partner's own key is never billed by the platform). */
export function paidByLabel(paidBy: string | null | undefined): string {
  if (paidBy === 'account') return 'Your key or server (not billed by the platform)';
  if (paidBy === 'platform') return 'The platform’s key (within the minute price)';
  return 'Not billed separately';
}

/** A token count with thousands separated. */
export const tokens = (n: number) => n.toLocaleString('en-IN');

/** The whole catalog, as the account can use it now. */
export const loadModelCatalog = () => v2.get<{ models: CatalogModel[] }>('/models').then((r) => r.models);

/** Who wrote an agent line, as a person reads it (modelName); null for a line no model wrote (the intro). */
export function writtenBy(
  providers: { llm: string | null; llm_model?: string | null } | undefined,
  catalog: CatalogModel[] = [],
): string | null {
  return providers?.llm ? modelName(providers.llm, providers.llm_model, catalog) : null;
}
