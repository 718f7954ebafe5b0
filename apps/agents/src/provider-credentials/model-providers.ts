// What the agents service says of model providers without asking anyone: their names, and whether an account
// can use one (its keys and tier given). No service here, so every part of the service can import it.
import type { ModelAvailability } from '@vap/api';
import { MODEL_PROVIDERS, ModelProviderName } from '@vap/messages';
import { modelPlugin } from '@vap/llm';
import type { ModelDeployment } from './model-deployment';

/** What decides which models an account can think with: its own keys (and custom server) and its voice tier. */
export interface ModelAccount {
  /** Providers the account has a credential for (`custom`: its own model server). */
  keys: ReadonlySet<string>;
  voiceTier: string;
}

/** The names partners know model providers by (the plugins' own, kept here for any not built in). */
const MODEL_PROVIDER_LABELS: Record<ModelProviderName | 'custom' | 'offline', string> = {
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

export function isModelProvider(provider: string): provider is ModelProviderName {
  return (MODEL_PROVIDERS as readonly string[]).includes(provider);
}

export function modelProviderLabel(provider: string): string {
  return (
    modelPlugin(provider)?.label ??
    (Object.prototype.hasOwnProperty.call(MODEL_PROVIDER_LABELS, provider)
      ? MODEL_PROVIDER_LABELS[provider as keyof typeof MODEL_PROVIDER_LABELS]
      : provider)
  );
}

/**
 * How an account can use a model of this provider, best first: the offline engine always; a cloud provider with
 * the account's key, else the platform's key for the account's tier; `custom` with the account's own server;
 * null when none (the model is not offered, and an agent is refused it).
 */
export function modelAvailabilityOf(
  provider: string,
  account: ModelAccount,
  deployment: Pick<ModelDeployment, 'platformKeyFor'>,
): ModelAvailability | null {
  if (provider === 'offline') return 'offline';
  if (provider === 'custom') return account.keys.has('custom') ? 'account_key' : null;
  if (!isModelProvider(provider)) return null;
  if (account.keys.has(provider)) return 'account_key';
  return deployment.platformKeyFor(provider, account.voiceTier) ? 'platform' : null;
}

/**
 * Why a model of this provider cannot be used by the account, said so the partner knows what to do. `field` is
 * how the message names the setting (`model`, `fallback_models[1]`).
 */
export function modelUnavailableReason(provider: string, field = 'model'): string {
  if (provider === 'custom') {
    return (
      `${field} needs this account's own model server: store it with POST /provider-credentials ` +
      '(provider custom, with its base_url)'
    );
  }
  if (!isModelProvider(provider)) return `${field} names ${provider}, which this platform cannot run`;
  const label = modelProviderLabel(provider);
  return (
    `${field} needs a key for ${label} on this account: store one with POST /provider-credentials ` +
    `(the platform offers no ${label} key for this account's tier)`
  );
}
