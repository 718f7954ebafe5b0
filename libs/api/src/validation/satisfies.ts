import { registerDecorator, ValidationArguments } from 'class-validator';

/**
 * A field checked by a problem function (null: fine; else the message), so that a rule and its words are
 * written once and the validator, the service and the tests share them.
 */
export function Satisfies(name: string, problem: (value: unknown) => string | null): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name,
      target: target.constructor,
      propertyName: propertyName as string,
      validator: {
        validate: (value: unknown) => problem(value) === null,
        defaultMessage: (args?: ValidationArguments) => problem(args?.value) ?? '',
      },
    });
}
