import { ValidationArguments, ValidatorConstraint, ValidatorConstraintInterface } from 'class-validator';
import { parseDuration, parseDurationList } from './duration';

@ValidatorConstraint({ name: 'duration' })
export class DurationConstraint implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && (parseDuration(value) ?? 0) > 0;
  }

  defaultMessage(args: ValidationArguments): string {
    return `${args.property} must be a duration such as 30s, 5m, 2h or 5d`;
  }
}

@ValidatorConstraint({ name: 'durationList' })
export class DurationListConstraint implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && parseDurationList(value) !== null;
  }

  defaultMessage(args: ValidationArguments): string {
    return `${args.property} must be comma-separated durations such as 5s,5m,30m,2h`;
  }
}
