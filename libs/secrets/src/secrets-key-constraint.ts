import { ValidatorConstraint, ValidatorConstraintInterface } from 'class-validator';
import { isSecretsKey } from './secrets-key';

/** The key `npm start` uses in development; any other environment must set its own. */
export const DEV_SECRETS_KEY = Buffer.from('development-only-key-do-not-use!').toString('hex');

/** SECRETS_KEY's default: the development key in development only, so elsewhere a missing key fails boot. */
export function defaultSecretsKey(env: NodeJS.ProcessEnv = process.env): string {
  return (env.NODE_ENV ?? 'development') === 'development' ? DEV_SECRETS_KEY : '';
}

/** Config validation of SECRETS_KEY: `@Validate(SecretsKeyConstraint)`. */
@ValidatorConstraint({ name: 'secretsKey' })
export class SecretsKeyConstraint implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return isSecretsKey(value);
  }

  defaultMessage(): string {
    return 'SECRETS_KEY must be 32 bytes as 64 hex characters or base64 (openssl rand -base64 32)';
  }
}
