import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, Max, Min } from 'class-validator';

type PropertyDecorator = (target: object, property: string) => void;

// An unset variable is never transformed: the property keeps its default. An empty one is refused.

/** `'42'` → 42; any other text → NaN, refused by IsInt. */
const toInt = ({ value }: { value: unknown }): number | undefined =>
  value === undefined || value === '' ? undefined : Number(value);

/** Exactly `true` or `false`; anything else stays as it was, for IsBoolean to refuse. */
const toBool = ({ value }: { value: unknown }): unknown =>
  value === 'true' ? true : value === 'false' ? false : value;

export interface IntSettingOptions {
  min: number;
  /** No upper bound when unset. */
  max?: number;
}

/** An integer setting within [min, max]: the environment's string read as a number, then checked. */
export function IntSetting({ min, max }: IntSettingOptions): PropertyDecorator {
  return (target, property) => {
    // Applied in the order of the decorator stacks this replaces (bottom-up), so problems read the same.
    if (max !== undefined) Max(max)(target, property);
    Min(min)(target, property);
    IsInt()(target, property);
    Transform(toInt)(target, property);
  };
}

/** A boolean setting, written `true` or `false` (nothing else, not even another case). */
export function BoolSetting(): PropertyDecorator {
  return (target, property) => {
    IsBoolean({ message: '$property must be one of the following values: true, false' })(target, property);
    Transform(toBool)(target, property);
  };
}
