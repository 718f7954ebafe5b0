import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { WEBHOOK_SECRET_PREFIX } from '@vap/api';
import { SecretBox } from '@vap/secrets';
import { WebhooksConfig } from '../config/webhooks.config';

export type SecretSlot = 'secret' | 'previous_secret';

/** Signing secrets: made here, sealed at rest with SECRETS_KEY, bound to their endpoint and slot. */
@Injectable()
export class EndpointSecrets {
  private readonly box: SecretBox;

  constructor(config: WebhooksConfig) {
    this.box = new SecretBox(config.SECRETS_KEY);
  }

  /** `whsec_` + 32 random bytes, base64url. */
  generate(): string {
    return `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
  }

  seal(endpointId: string, slot: SecretSlot, secret: string): string {
    return this.box.seal(secret, `webhook_endpoint:${endpointId}:${slot}`);
  }

  open(endpointId: string, slot: SecretSlot, sealed: string): string {
    return this.box.open(sealed, `webhook_endpoint:${endpointId}:${slot}`);
  }
}
