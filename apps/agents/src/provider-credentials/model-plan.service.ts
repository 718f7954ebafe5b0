import { Injectable } from '@nestjs/common';
import {
  AgentModelSettings,
  ModelCredential,
  ModelPlan,
  ModelPlanEntry,
  ModelPlanRequest,
  ModelProviderName,
} from '@vap/messages';
import { modelCard } from '@vap/llm';
import { isModelProvider } from './model-providers';
import { ModelDeployment } from './model-deployment';
import { OpenedCredential, ProviderCredentialsService } from './provider-credentials.service';
import { AccountKeys } from './speech-keys';

/** The entry's settings as the plan carries them: only those the agent set. */
function settingsOf(model: AgentModelSettings): AgentModelSettings {
  const out: AgentModelSettings = { provider: model.provider, model: model.model };
  if (typeof model.temperature === 'number') out.temperature = model.temperature;
  if (typeof model.maxTokens === 'number') out.maxTokens = model.maxTokens;
  if (typeof model.topP === 'number') out.topP = model.topP;
  if (typeof model.voice === 'string') out.voice = model.voice;
  return out;
}

function isSettings(value: unknown): value is AgentModelSettings {
  const v = value as Partial<AgentModelSettings> | null;
  return !!v && typeof v === 'object' && typeof v.provider === 'string' && typeof v.model === 'string';
}

/**
 * agents.model.plan: the models a call (or a test run, or post-call analysis) thinks with, from the agent's
 * snapshot and the account's credentials as they are now: the agent's model, then its fallbacks, each with the
 * account's key for its provider, else the platform's when the account's tier may use it (paidBy says whose);
 * `custom` with the account's own server (its URL, key and signing secret). An entry no key serves any more is
 * left out; none left (or none chosen) is an empty plan, and the deployment's default model answers. Keys are
 * unsealed here and go to the asking service alone.
 */
@Injectable()
export class ModelPlanService {
  constructor(
    private readonly credentials: ProviderCredentialsService,
    private readonly deployment: ModelDeployment,
  ) {}

  async plan(partnerId: string, voiceTier: string, raw: ModelPlanRequest): Promise<ModelPlan> {
    // A caller older than a field sends less, which reads as none.
    const chosen = [raw.model, ...(Array.isArray(raw.fallbackModels) ? raw.fallbackModels : [])].filter(
      isSettings,
    );
    if (chosen.length === 0) return { models: [] };
    const keys = chosen.some((m) => m.provider !== 'offline')
      ? await this.credentials.openKeys(partnerId)
      : (new Map() as AccountKeys);
    const models: ModelPlanEntry[] = [];
    for (const model of chosen) {
      const entry: ModelPlanEntry = {
        ...settingsOf(model),
        speechToSpeech: modelCard(model.provider, model.model)?.speechToSpeech ?? false,
      };
      if (model.provider !== 'offline') {
        const credential = this.credentialFor(model.provider, keys, voiceTier);
        if (!credential) continue;
        entry.credential = credential;
      }
      models.push(entry);
    }
    return { models };
  }

  /** The key one provider's entry runs on for the account, or undefined when none may be used. */
  credentialFor(provider: string, keys: AccountKeys, voiceTier: string): ModelCredential | undefined {
    if (provider === 'custom') {
      const own = keys.get('custom');
      return own?.baseUrl ? customCredential(own) : undefined;
    }
    if (!isModelProvider(provider)) return undefined;
    const own = keys.get(provider);
    if (own) return this.cloudCredential(provider, own.apiKey, own.region, 'account');
    const platform = this.deployment.platformKeyFor(provider, voiceTier);
    return platform
      ? this.cloudCredential(provider, platform.apiKey, platform.region ?? null, 'platform')
      : undefined;
  }

  private cloudCredential(
    provider: ModelProviderName,
    apiKey: string,
    region: string | null,
    paidBy: ModelCredential['paidBy'],
  ): ModelCredential | undefined {
    const baseUrl = this.deployment.baseUrl(provider, region);
    if (!baseUrl) return undefined;
    const credential: ModelCredential = { provider, apiKey, baseUrl, paidBy };
    if (region) credential.region = region;
    return credential;
  }
}

/** The account's own model server: where it is, its key ('' for none) and the secret its requests are signed with. */
function customCredential(own: OpenedCredential): ModelCredential {
  const credential: ModelCredential = {
    provider: 'custom',
    apiKey: own.apiKey,
    baseUrl: own.baseUrl ?? '',
    paidBy: 'account',
  };
  if (own.signingSecret) credential.signingSecret = own.signingSecret;
  return credential;
}
