import { ValidationArguments, ValidatorConstraint, ValidatorConstraintInterface } from 'class-validator';
import { isSecretsKey } from './secrets-key';

/** Config validation of SECRETS_KEY, or of a key of the same form: `@Validate(SecretsKeyConstraint)`. */
@ValidatorConstraint({ name: 'secretsKey' })
export class SecretsKeyConstraint implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return isSecretsKey(value);
  }

  defaultMessage(args?: ValidationArguments): string {
    const setting = args?.property ?? 'SECRETS_KEY';
    const hint = setting === 'SECRETS_KEY' ? ' (openssl rand -base64 32)' : '';
    return `${setting} must be 32 bytes as 64 hex characters or base64${hint}`;
  }
}
