import { ArgumentMetadata, Injectable, PipeTransform, Type } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import { createValidationPipe } from '../validation/validation-pipe';

/**
 * Validates and transforms a command's data when the handler declares it as a class-validator DTO, with
 * the gateway's rules (whitelist, forbidden extra fields, the same 400 VALIDATION_ERROR). Data declared as
 * an interface or a plain object type arrives as sent: its parts were validated by whoever built it.
 */
@Injectable()
export class CommandValidationPipe implements PipeTransform {
  private readonly pipe = createValidationPipe();
  /** Whether a class carries validation rules, asked once per class rather than once per message. */
  private readonly isDto = new WeakMap<Type, boolean>();

  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    const { metatype } = metadata;
    if (!metatype || !this.validates(metatype)) return value;
    // The ValidationPipe passes custom parameter decorators through; the data is a body like any other.
    return this.pipe.transform(value, { ...metadata, type: 'body' });
  }

  private validates(metatype: Type): boolean {
    let known = this.isDto.get(metatype);
    if (known === undefined) {
      known = getMetadataStorage().getTargetValidationMetadatas(metatype, '', true, false).length > 0;
      this.isDto.set(metatype, known);
    }
    return known;
  }
}
