import { SPEECH_PROVIDERS, SpeechProviderName, VOICE_TIERS, entitledVoiceTiers } from '@vap/messages';
import { baseUrlFor, speechPlugin } from '@vap/speech';

/**
 * The platform's own speech keys and the offline stand-in switch, as the SPEECH_<P>_* settings give them. Read
 * through `SpeechKeySettings` so that the agents config can be passed in; the default reads the process
 * environment (the same names the config declares).
 */
export type SpeechKeySettings = Readonly<Record<string, string | undefined>>;

export interface PlatformSpeechKey {
  provider: SpeechProviderName;
  apiKey: string;
  baseUrl: string;
  region?: string;
}

function isSpeechProvider(name: string): name is SpeechProviderName {
  return (SPEECH_PROVIDERS as readonly string[]).includes(name);
}

/** The tiers SPEECH_<P>_TIERS lets use the platform's key (all when unset). */
function tiersOf(value: string | undefined): string[] {
  if (!value?.trim()) return [...VOICE_TIERS];
  return value
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
}

/**
 * The platform's key for a provider when one is configured and the partner's tier may use it (a tier includes
 * the tiers below it: a premium account may use a key the platform grants to standard).
 */
export function platformSpeechKey(
  provider: string,
  tier: string,
  settings: SpeechKeySettings = process.env,
): PlatformSpeechKey | undefined {
  if (!isSpeechProvider(provider)) return undefined;
  const prefix = `SPEECH_${provider.toUpperCase()}_`;
  const apiKey = settings[`${prefix}API_KEY`]?.trim();
  if (!apiKey) return undefined;
  const allowed = tiersOf(settings[`${prefix}TIERS`]);
  if (!entitledVoiceTiers(tier).some((t) => allowed.includes(t))) return undefined;
  const plugin = speechPlugin(provider);
  const region = provider === 'azure' ? settings.SPEECH_AZURE_REGION?.trim() || undefined : undefined;
  const template = settings[`${prefix}BASE_URL`]?.trim() || plugin?.defaultBaseUrl;
  if (!template) return undefined;
  return { provider, apiKey, baseUrl: baseUrlFor(template, region), ...(region ? { region } : {}) };
}

/** Whether a cloud voice with no key anywhere is spoken by the offline engine (default: on unless production). */
export function offlineStandIn(settings: SpeechKeySettings = process.env): boolean {
  const value = settings.SPEECH_OFFLINE_STAND_IN?.trim().toLowerCase();
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  return settings.NODE_ENV !== 'production';
}
