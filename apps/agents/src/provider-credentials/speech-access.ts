import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { SPEECH_PROVIDERS, SpeechProviderName, VoiceAvailability } from '@vap/messages';
import { ProviderCredentialsService } from './provider-credentials.service';
import { SpeechDeployment } from './speech-deployment';

/** What decides which providers an account can speak with: its own keys and its voice tier. */
export interface SpeechAccount {
  keys: ReadonlySet<string>;
  voiceTier: string;
}

/** The labels partners know providers by, for messages (the plugins' own, kept here for the ones not built in). */
const PROVIDER_LABELS: Record<SpeechProviderName, string> = {
  openai: 'OpenAI',
  elevenlabs: 'ElevenLabs',
  cartesia: 'Cartesia',
  deepgram: 'Deepgram',
  azure: 'Azure Speech',
  sarvam: 'Sarvam',
  assemblyai: 'AssemblyAI',
};

export function isSpeechProvider(provider: string): provider is SpeechProviderName {
  return (SPEECH_PROVIDERS as readonly string[]).includes(provider);
}

export function providerLabel(provider: string): string {
  return isSpeechProvider(provider) ? PROVIDER_LABELS[provider] : provider;
}

/**
 * How an account can speak with a voice of this provider, best first: the keyless engines' own voices always (the
 * offline engine's, local speech's); a cloud provider with the account's key, else the platform's key for the
 * account's tier, else the deployment's default speech standing in where the deployment allows it (local speech
 * in development); null when none (the voice is not offered).
 */
export function availabilityOf(
  provider: string,
  account: SpeechAccount,
  deployment: Pick<SpeechDeployment, 'platformKeyFor' | 'offlineStandIn'>,
): VoiceAvailability | null {
  if (provider === 'offline' || provider === 'local') return 'offline';
  if (isSpeechProvider(provider)) {
    if (account.keys.has(provider)) return 'account_key';
    if (deployment.platformKeyFor(provider, account.voiceTier)) return 'platform';
  }
  return deployment.offlineStandIn ? 'development_stand_in' : null;
}

/** Why a voice of this provider cannot be used by the account, said so the partner knows what to do. */
export function unavailableReason(provider: string): string {
  if (!isSpeechProvider(provider))
    return `voice_id is a voice of ${provider}, which this platform cannot speak`;
  const label = providerLabel(provider);
  return (
    `voice_id needs a key for ${label} on this account: store one with POST /provider-credentials ` +
    `(the platform offers no ${label} key for this account's tier)`
  );
}

/** The account's view of providers, read once per request. */
@Injectable()
export class SpeechAccess {
  constructor(
    private readonly credentials: ProviderCredentialsService,
    readonly deployment: SpeechDeployment,
  ) {}

  async accountOf(partnerId: string, voiceTier: string, em?: EntityManager): Promise<SpeechAccount> {
    return { keys: await this.credentials.providersWithKeys(partnerId, em), voiceTier };
  }

  availability(provider: string, account: SpeechAccount): VoiceAvailability | null {
    return availabilityOf(provider, account, this.deployment);
  }
}
