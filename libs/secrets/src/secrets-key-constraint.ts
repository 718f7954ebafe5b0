import { ValidatorConstraint, ValidatorConstraintInterface } from 'class-validator';
import { isSecretsKey } from './secrets-key';

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
