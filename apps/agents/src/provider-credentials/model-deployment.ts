import { Injectable } from '@nestjs/common';
import { entitledVoiceTiers, MODEL_PROVIDERS, ModelProviderName, VoiceTier } from '@vap/messages';
import { modelPlugin } from '@vap/llm';
import { KnowledgeConfig } from '../config/knowledge.config';
import { ModelsConfig } from '../config/models.config';
import { tiersOf } from './speech-deployment';

/** The platform's own key for one model provider, and the voice tiers whose accounts it serves. */
export interface PlatformModelKey {
  provider: ModelProviderName;
  apiKey: string;
  /** Azure OpenAI: the resource the key belongs to. */
  region?: string;
  tiers: readonly VoiceTier[];
}

type Setting = 'API_KEY' | 'BASE_URL' | 'TIERS';

function settingOf(config: ModelsConfig, provider: ModelProviderName, setting: Setting): string | undefined {
  const value = (config as unknown as Record<string, unknown>)[`MODEL_${provider.toUpperCase()}_${setting}`];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/**
 * What the deployment says about model providers (MODEL_* settings), as SpeechDeployment says it for speech:
 * where each provider's API is, the keys the platform pays for and which voice tiers they serve, the key check's
 * deadline, and whether a partner's own model server may be on a private network (WEBHOOK_ALLOW_PRIVATE_NETWORKS,
 * the switch custom functions follow; development and tests only).
 */
@Injectable()
export class ModelDeployment {
  private readonly platformKeys = new Map<ModelProviderName, PlatformModelKey>();
  readonly keyCheckTimeoutMs: number;
  readonly allowPrivateNetworks: boolean;

  constructor(
    private readonly models: ModelsConfig,
    knowledge: KnowledgeConfig,
  ) {
    this.keyCheckTimeoutMs = models.MODEL_KEY_CHECK_TIMEOUT_MS;
    this.allowPrivateNetworks = knowledge.WEBHOOK_ALLOW_PRIVATE_NETWORKS;
    for (const provider of MODEL_PROVIDERS) {
      const apiKey = settingOf(models, provider, 'API_KEY');
      if (!apiKey) continue;
      this.platformKeys.set(provider, {
        provider,
        apiKey,
        region: provider === 'azure_openai' ? models.MODEL_AZURE_OPENAI_RESOURCE : undefined,
        tiers: tiersOf(settingOf(models, provider, 'TIERS')),
      });
    }
  }

  /**
   * The provider's API base with the key's resource put in (Azure OpenAI), or undefined when the deployment has
   * no way to reach the provider (no setting, and no plugin naming its public API).
   */
  baseUrl(provider: ModelProviderName, region?: string | null): string | undefined {
    const template = settingOf(this.models, provider, 'BASE_URL') ?? modelPlugin(provider)?.defaultBaseUrl;
    if (!template) return undefined;
    return region ? template.replace('{region}', encodeURIComponent(region)) : template;
  }

  /** The platform's key for the provider when accounts of this voice tier may use it. */
  platformKeyFor(provider: ModelProviderName, voiceTier: string): PlatformModelKey | undefined {
    const key = this.platformKeys.get(provider);
    // An unknown tier counts as the base tier, as the voice catalog's entitlement does.
    const tier = entitledVoiceTiers(voiceTier).at(-1) as VoiceTier;
    return key && key.tiers.includes(tier) ? key : undefined;
  }
}
