import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { CUSTOM_FUNCTION_SECRET_PREFIX } from '@vap/api';
import { SecretBox } from '@vap/secrets';
import { CustomFunctionsConfig } from '../config/custom-functions.config';

/**
 * A function's signing secret and static headers: made and sealed here with SECRETS_KEY, each bound to its
 * function and field, so a sealed value copied into another row or column does not open.
 */
@Injectable()
export class CustomFunctionSecrets {
  private readonly box: SecretBox;

  constructor(config: CustomFunctionsConfig) {
    this.box = new SecretBox(config.SECRETS_KEY);
  }

  /** `fnsec_` + 32 random bytes, base64url. */
  generateSigningSecret(): string {
    return `${CUSTOM_FUNCTION_SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
  }

  sealSigningSecret(functionId: string, secret: string): string {
    return this.box.seal(secret, `custom_function:${functionId}:signing_secret`);
  }

  openSigningSecret(functionId: string, sealed: string): string {
    return this.box.open(sealed, `custom_function:${functionId}:signing_secret`);
  }

  /** Null for no headers, so a function without any stores nothing to open. */
  sealHeaders(functionId: string, headers: Record<string, string>): string | null {
    if (Object.keys(headers).length === 0) return null;
    return this.box.seal(JSON.stringify(headers), `custom_function:${functionId}:headers`);
  }

  openHeaders(functionId: string, sealed: string | null): Record<string, string> {
    if (sealed === null) return {};
    return JSON.parse(this.box.open(sealed, `custom_function:${functionId}:headers`)) as Record<
      string,
      string
    >;
  }
}
