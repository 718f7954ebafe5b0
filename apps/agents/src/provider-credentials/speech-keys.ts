import { Injectable } from '@nestjs/common';
import type { CredentialProviderName, SpeechCredential } from '@vap/messages';
import { OpenedCredential, ProviderCredentialsService } from './provider-credentials.service';
import { isSpeechProvider } from './speech-access';
import { SpeechDeployment } from './speech-deployment';

/** An account's own credentials, unsealed, by provider (speech and model providers alike). */
export type AccountKeys = Map<CredentialProviderName, OpenedCredential>;

/**
 * Which key speaks or hears for an account: its own for the provider, else the platform's when its tier may use
 * it, else none. One place for the speech plan of a call and for voice previews.
 */
@Injectable()
export class SpeechKeys {
  constructor(
    private readonly credentials: ProviderCredentialsService,
    private readonly deployment: SpeechDeployment,
  ) {}

  /** Whether a cloud voice with no key anywhere is spoken by a stand-in (local speech, or the offline engine). */
  get offlineStandIn(): boolean {
    return this.deployment.offlineStandIn;
  }

  /** What speaks a stand-in voice's preview. */
  get standInEngine(): 'local' | 'offline' {
    return this.deployment.standInEngine;
  }

  accountKeys(partnerId: string): Promise<AccountKeys> {
    return this.credentials.openKeys(partnerId);
  }

  /** The credential of one provider for the account (its keys opened once per plan by accountKeys). */
  credentialFor(provider: string, keys: AccountKeys, voiceTier: string): SpeechCredential | undefined {
    if (!isSpeechProvider(provider)) return undefined;
    const own = keys.get(provider);
    if (own) {
      const baseUrl = this.deployment.baseUrl(provider, own.region);
      if (!baseUrl) return undefined;
      const credential: SpeechCredential = { provider, apiKey: own.apiKey, baseUrl, paidBy: 'account' };
      if (own.region) credential.region = own.region;
      return credential;
    }
    const platform = this.deployment.platformKeyFor(provider, voiceTier);
    if (!platform) return undefined;
    const baseUrl = this.deployment.baseUrl(provider, platform.region);
    if (!baseUrl) return undefined;
    const credential: SpeechCredential = { provider, apiKey: platform.apiKey, baseUrl, paidBy: 'platform' };
    if (platform.region) credential.region = platform.region;
    return credential;
  }
}
