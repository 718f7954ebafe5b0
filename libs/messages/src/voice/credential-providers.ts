import { MODEL_PROVIDERS, type ModelProviderName } from './model-plan';
import { SPEECH_PROVIDERS, type SpeechProviderName } from './speech-providers';

/**
 * What an account's provider credential (POST /provider-credentials) may be for: every cloud speech provider,
 * every model provider (`openai` is both: one key serves its speech and its models), and `custom`, the account's
 * own OpenAI-compatible model server. The one list; the API, the agents service and its table follow it.
 */
export type CredentialProviderName = SpeechProviderName | ModelProviderName | 'custom';
export const CREDENTIAL_PROVIDERS: readonly CredentialProviderName[] = [
  ...new Set<CredentialProviderName>([...SPEECH_PROVIDERS, ...MODEL_PROVIDERS, 'custom']),
];

/** What a stored credential serves: speech (voices, transcribers), models (the agent's model), or both. */
export const CREDENTIAL_USES = ['speech', 'models'] as const;
export type CredentialUse = (typeof CREDENTIAL_USES)[number];

/** What a credential of this provider serves, speech first. */
export function credentialUses(provider: string): CredentialUse[] {
  const uses: CredentialUse[] = [];
  if ((SPEECH_PROVIDERS as readonly string[]).includes(provider)) uses.push('speech');
  if ((MODEL_PROVIDERS as readonly string[]).includes(provider) || provider === 'custom') uses.push('models');
  return uses;
}
