import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { MODEL_SERVER_SECRET_PREFIX } from '@vap/api';
import { SecretBox } from '@vap/secrets';
import { CustomFunctionsConfig } from '../config/custom-functions.config';

/** Binds a sealed key to its row: copied into another credential's row it does not open. */
const contextOf = (credentialId: string) => `provider_credential:${credentialId}:api_key`;
/** A custom model server's signing secret, bound to its row and column alike. */
const secretContextOf = (credentialId: string) => `provider_credential:${credentialId}:signing_secret`;

/**
 * Seals and opens accounts' provider keys with the service's SECRETS_KEY (declared with custom functions, its
 * first user), as the calls service seals carrier credentials: AES-256-GCM, the row's id as associated data.
 */
@Injectable()
export class ProviderKeySealer {
  private readonly box: SecretBox;

  constructor(config: CustomFunctionsConfig) {
    this.box = new SecretBox(config.SECRETS_KEY);
  }

  seal(credentialId: string, apiKey: string): string {
    return this.box.seal(apiKey, contextOf(credentialId));
  }

  open(credentialId: string, sealed: string): string {
    return this.box.open(sealed, contextOf(credentialId));
  }

  /** A new signing secret for a custom model server: `mssec_` + 32 random bytes, base64url. */
  generateSigningSecret(): string {
    return `${MODEL_SERVER_SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
  }

  sealSigningSecret(credentialId: string, secret: string): string {
    return this.box.seal(secret, secretContextOf(credentialId));
  }

  openSigningSecret(credentialId: string, sealed: string): string {
    return this.box.open(sealed, secretContextOf(credentialId));
  }
}

/** `…abcd`: what every read shows of a key (a key shorter than eight characters never gets this far). */
export function maskedKey(apiKey: string): string {
  return `…${apiKey.slice(-4)}`;
}

/**
 * A provider's answer with the key itself replaced by its mask, should the provider echo it (some quote the key
 * they refused): the answer is shown to the partner and may be logged.
 */
export function withoutKey(text: string, apiKey: string): string {
  return apiKey.length > 0 ? text.split(apiKey).join(maskedKey(apiKey)) : text;
}
