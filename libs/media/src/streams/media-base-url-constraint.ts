import { ValidationArguments, ValidatorConstraint, ValidatorConstraintInterface } from 'class-validator';
import { mediaWebSocketBase } from './media-url';

/**
 * Config validation of a base URL stream URLs are built on (MEDIA_PUBLIC_URL, SANDBOX_MEDIA_URL):
 * `@Validate(MediaBaseUrlConstraint)`. Its rule is mediaWebSocketBase's, so whatever passes boot is a base
 * the calls service can hand out and the voice service can read back. Missing or empty counts as wrong.
 */
@ValidatorConstraint({ name: 'mediaBaseUrl' })
export class MediaBaseUrlConstraint implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    if (typeof value !== 'string' || !value) return false;
    try {
      mediaWebSocketBase(value);
      return true;
    } catch {
      return false;
    }
  }

  defaultMessage(args: ValidationArguments): string {
    return `${args.property} must be set to the voice service's http(s) or ws(s) base URL, without query, fragment or credentials, e.g. https://media.example.com`;
  }
}
