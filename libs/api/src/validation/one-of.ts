import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';

/** An optional field (typically a list filter) that takes one of `values`; the 400 names the field and lists them. */
export function OptionalOneOf(values: readonly string[]) {
  return (target: object, key: string) => {
    // Applied bottom-up, as the decorators would be if written out on the property.
    IsIn(values as string[], { message: `${key} must be one of ${values.join(', ')}` })(target, key);
    IsOptional()(target, key);
    ApiPropertyOptional({ enum: values })(target, key);
  };
}
