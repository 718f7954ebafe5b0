import type { ModelPlanEntry } from '@vap/messages';
import { LanguageModel } from './language-model';
import { LlmError } from './llm-error';
import { modelPlugin } from './model-registry';
import { OfflineChatModel } from './offline-chat-model';

export interface PlannedModelOptions {
  /**
   * A custom server may be on a private or loopback address (development and tests only). Unset: the platform
   * switch WEBHOOK_ALLOW_PRIVATE_NETWORKS, as for custom functions and the partner's other URLs.
   */
  allowPrivateNetworks?: boolean;
}

/**
 * The adapter for one entry of agents.model.plan: the offline engine, or the provider's plugin with the
 * entry's credential (the account's key or the platform's) and its parameters as the adapter's defaults.
 * `timeoutMs` is the longest silence allowed before the first byte and between streamed chunks.
 * Throws LlmError for an entry no plugin can run (an unknown provider, a cloud entry without its credential).
 */
export function createPlannedModel(
  entry: ModelPlanEntry,
  timeoutMs: number,
  options: PlannedModelOptions = {},
): LanguageModel {
  if (entry.provider === 'offline') return new OfflineChatModel();
  const plugin = modelPlugin(entry.provider);
  if (!plugin) throw new LlmError(`no model plugin for provider ${entry.provider}`, 'protocol');
  const credential = entry.credential;
  if (!credential) throw new LlmError(`the plan gives no key for ${plugin.label}`, 'protocol');
  return plugin.create({
    baseUrl: credential.baseUrl,
    apiKey: credential.apiKey,
    model: entry.model,
    timeoutMs,
    ...(credential.region !== undefined ? { region: credential.region } : {}),
    ...(entry.temperature !== undefined ? { temperature: entry.temperature } : {}),
    ...(entry.maxTokens !== undefined ? { maxTokens: entry.maxTokens } : {}),
    ...(entry.topP !== undefined ? { topP: entry.topP } : {}),
    ...(credential.signingSecret !== undefined ? { signingSecret: credential.signingSecret } : {}),
    ...(options.allowPrivateNetworks !== undefined
      ? { allowPrivateNetworks: options.allowPrivateNetworks }
      : {}),
  });
}
