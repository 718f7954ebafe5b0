import { ValidateIf } from 'class-validator';

/**
 * An optional field that may be left out but not sent as null: omitted skips its checks (the default applies,
 * or an update keeps the current value); null goes through them and is refused. IsOptional would let null
 * through, to become a not-null violation further down.
 */
export function IfPresent(): PropertyDecorator {
  return ValidateIf((_: object, value: unknown) => value !== undefined);
}
