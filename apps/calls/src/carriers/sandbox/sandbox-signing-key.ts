import { Injectable } from '@nestjs/common';
import { CallsConfig } from '../../config/calls.config';
import { sandboxSigningKey } from './sandbox-signature';

/** The sandbox carrier's callback HMAC key, resolved once at boot. */
@Injectable()
export class SandboxSigningKey {
  readonly value: Buffer;

  constructor(config: CallsConfig) {
    this.value = sandboxSigningKey(
      config.SANDBOX_CALLBACK_SECRET,
      process.env.SECRETS_KEY,
      config.NODE_ENV === 'production',
    );
  }
}
