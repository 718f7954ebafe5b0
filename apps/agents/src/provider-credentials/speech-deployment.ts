import { Injectable } from '@nestjs/common';
import {
  entitledVoiceTiers,
  SPEECH_PROVIDERS,
  SpeechProviderName,
  VOICE_TIERS,
  VoiceTier,
} from '@vap/messages';
import { baseUrlFor, speechPlugin } from '@vap/speech';
import { AgentsConfig } from '../config/agents.config';
import { SpeechConfig } from '../config/speech.config';

/** The platform's own key for one provider, and the voice tiers whose accounts it serves. */
export interface PlatformSpeechKey {
  provider: SpeechProviderName;
  apiKey: string;
  region?: string;
  tiers: readonly VoiceTier[];
}

type Setting = 'API_KEY' | 'BASE_URL' | 'TIERS';

function settingOf(config: SpeechConfig, provider: SpeechProviderName, setting: Setting): string | undefined {
  const value = (config as unknown as Record<string, unknown>)[`SPEECH_${provider.toUpperCase()}_${setting}`];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** `premium, enterprise` -> ['premium', 'enterprise']; unset: every tier. */
export function tiersOf(setting: string | undefined): VoiceTier[] {
  if (!setting) return [...VOICE_TIERS];
  const named = setting.split(',').map((t) => t.trim());
  return VOICE_TIERS.filter((t) => named.includes(t));
}

/**
 * What the deployment says about speech providers (SPEECH_* settings): where each provider's API is, the keys the
 * platform pays for and which tiers they serve, whether the offline engine may stand in for a provider nobody has
 * a key for, and the key check's deadline.
 */
@Injectable()
export class SpeechDeployment {
  private readonly platformKeys = new Map<SpeechProviderName, PlatformSpeechKey>();
  readonly offlineStandIn: boolean;
  /** What speaks a stand-in voice's preview: local speech (eSpeak NG) or the offline engine. */
  readonly standInEngine: 'local' | 'offline';
  readonly keyCheckTimeoutMs: number;

  constructor(
    private readonly speech: SpeechConfig,
    agents: AgentsConfig,
  ) {
    // Development and test deployments let every catalog voice be tried without keys; production must opt in.
    this.offlineStandIn = speech.SPEECH_OFFLINE_STAND_IN ?? agents.NODE_ENV !== 'production';
    this.standInEngine = speech.SPEECH_STAND_IN === 'offline' ? 'offline' : 'local';
    this.keyCheckTimeoutMs = speech.SPEECH_KEY_CHECK_TIMEOUT_MS;
    for (const provider of SPEECH_PROVIDERS) {
      const apiKey = settingOf(speech, provider, 'API_KEY');
      if (!apiKey) continue;
      this.platformKeys.set(provider, {
        provider,
        apiKey,
        region: provider === 'azure' ? speech.SPEECH_AZURE_REGION : undefined,
        tiers: tiersOf(settingOf(speech, provider, 'TIERS')),
      });
    }
  }

  /**
   * The provider's API base with the key's region put in (Azure), or undefined when the deployment has no way
   * to reach the provider (no setting, and no plugin naming its public API).
   */
  baseUrl(provider: SpeechProviderName, region?: string | null): string | undefined {
    const template = settingOf(this.speech, provider, 'BASE_URL') ?? speechPlugin(provider)?.defaultBaseUrl;
    return template ? baseUrlFor(template, region ?? undefined) : undefined;
  }

  /** The platform's key for the provider when accounts of this voice tier may use it. */
  platformKeyFor(provider: SpeechProviderName, voiceTier: string): PlatformSpeechKey | undefined {
    const key = this.platformKeys.get(provider);
    // An unknown tier counts as the base tier, as the catalog's entitlement does.
    const tier = entitledVoiceTiers(voiceTier).at(-1) as VoiceTier;
    return key && key.tiers.includes(tier) ? key : undefined;
  }
}
