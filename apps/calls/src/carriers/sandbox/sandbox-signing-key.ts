import { Injectable } from '@nestjs/common';
import { CallsConfig } from '../../config/calls.config';
import { TelephonyConfig } from '../../config/telephony.config';
import { sandboxSigningKey } from './sandbox-signature';

/** The sandbox carrier's callback HMAC key, resolved once at boot from the validated settings. */
@Injectable()
export class SandboxSigningKey {
  readonly value: Buffer;

  constructor(config: CallsConfig, telephony: TelephonyConfig) {
    this.value = sandboxSigningKey(config.SANDBOX_CALLBACK_SECRET, telephony.SECRETS_KEY);
  }
}
