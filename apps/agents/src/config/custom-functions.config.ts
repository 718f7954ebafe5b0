import { Validate } from 'class-validator';
import { DevelopmentValue } from '@vap/runtime';
import { DEV_SECRETS_KEY, isDevelopmentSecret, SecretsKeyConstraint } from '@vap/secrets';

/** Settings of custom functions in the agents service, validated at boot. */
export class CustomFunctionsConfig {
  /** AES-256-GCM key of custom functions' stored headers and signing secrets (a fixed key in development only). */
  @DevelopmentValue(DEV_SECRETS_KEY, { refuse: isDevelopmentSecret })
  @Validate(SecretsKeyConstraint)
  SECRETS_KEY: string = '';
}
