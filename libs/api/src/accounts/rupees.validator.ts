import { ValidationOptions, registerDecorator } from 'class-validator';

/**
 * A finite amount in rupees with at most two decimals. class-validator's `IsNumber({ maxDecimalPlaces })`
 * throws on numbers JavaScript writes in exponent form (1e-7), which turned such a balance into a 500.
 */
export function IsRupees(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isRupees',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: '$property must be an amount in rupees with at most 2 decimals', ...options },
      validator: {
        validate: (value: unknown) =>
          typeof value === 'number' &&
          Number.isFinite(value) &&
          Math.abs(Math.round(value * 100) - value * 100) < 1e-6,
      },
    });
}
