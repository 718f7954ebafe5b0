import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsDefined,
  IsObject,
  IsIn,
  IsString,
  Matches,
  MaxLength,
  ValidateBy,
  ValidateIf,
  ValidateNested,
  ValidationArguments,
} from 'class-validator';
import { EXTRACTION_KEY_TYPES, ExtractionKeyType } from '@vap/messages';
import {
  duplicateKeyNames,
  EXTRACTION_KEY_NAME_PATTERN,
  ExtractionLimits,
  extractionOptionsProblem,
} from './extraction-key-rules';
import { ExtractionKey } from '@vap/messages';
import { IfPresent } from '../validation';

const NAME_RULE =
  'lowercase letter first, then lowercase letters, digits or _; 1..64 characters; unique in its list';

/** Validates `options` against the key's `type`. */
function FitsKeyType() {
  return ValidateBy({
    name: 'fitsKeyType',
    validator: {
      validate: (value: unknown, args?: ValidationArguments) =>
        extractionOptionsProblem((args?.object as { type?: unknown }).type, value) === null,
      defaultMessage: (args?: ValidationArguments) =>
        extractionOptionsProblem((args?.object as { type?: unknown }).type, args?.value) ??
        'options are invalid',
    },
  });
}

/** Rejects a list of keys in which a name repeats. */
export function UniqueKeyNames() {
  return ValidateBy({
    name: 'uniqueKeyNames',
    validator: {
      validate: (value: unknown) =>
        !Array.isArray(value) ||
        duplicateKeyNames(value.filter((k) => k && typeof k === 'object')).length === 0,
      defaultMessage: (args?: ValidationArguments) =>
        `${args?.property} must not repeat a key name (${duplicateKeyNames((args?.value as { name: unknown }[]) ?? []).join(', ')})`,
    },
  });
}

export class ExtractionKeyInputDto {
  @ApiProperty({
    pattern: EXTRACTION_KEY_NAME_PATTERN.source,
    example: 'callback_requested',
    description: NAME_RULE,
  })
  @IsDefined({ message: 'name is required' })
  @Matches(EXTRACTION_KEY_NAME_PATTERN, {
    message: `name must match ${EXTRACTION_KEY_NAME_PATTERN.source} (${NAME_RULE})`,
  })
  @IsString()
  name: string;

  @ApiProperty({ enum: EXTRACTION_KEY_TYPES, example: 'boolean' })
  @IsDefined({ message: 'type is required' })
  @IsIn(EXTRACTION_KEY_TYPES as unknown as string[], {
    message: `type must be one of ${EXTRACTION_KEY_TYPES.join(', ')}`,
  })
  type: ExtractionKeyType;

  @ApiPropertyOptional({
    type: [String],
    maxItems: ExtractionLimits.enumOptionsMax,
    description:
      'The allowed values; required for type enum (1..50 distinct values), not allowed for other types',
    example: ['interested', 'not_interested', 'call_back_later'],
  })
  @ValidateIf((o: ExtractionKeyInputDto, v) => v !== undefined || o.type === 'enum')
  @FitsKeyType()
  options?: string[];

  @ApiPropertyOptional({
    maxLength: ExtractionLimits.descriptionMax,
    default: '',
    description: 'What to extract, in plain words; the extraction model reads it',
    example: 'Whether the caller asked to be called back later',
  })
  @IfPresent()
  @MaxLength(ExtractionLimits.descriptionMax)
  @IsString()
  description?: string;
}

export class ExtractionKeyDto implements ExtractionKey {
  @ApiProperty({ example: 'callback_requested' })
  name: string;

  @ApiProperty({ enum: EXTRACTION_KEY_TYPES })
  type: ExtractionKeyType;

  @ApiPropertyOptional({ type: [String], description: 'Present for type enum only' })
  options?: string[];

  @ApiProperty({ description: 'Empty string when none was given' })
  description: string;
}

/**
 * A list of extraction keys: an array of at most `maxItems` key objects with names unique in the list. Listed in
 * the order the same decorators stacked on the property would apply (bottom up).
 */
export function ExtractionKeyList(maxItems: number) {
  return applyDecorators(
    IsArray(),
    Type(() => ExtractionKeyInputDto),
    ValidateNested({ each: true }),
    // ValidateNested walks into a nested array instead of refusing it: [[]] would pass as a key.
    IsObject({ each: true, message: 'each key must be an object' }),
    UniqueKeyNames(),
    ArrayMaxSize(maxItems),
  );
}

/** Inline extraction keys of an agent, set with PUT /agent/{id}. */
export class ExtractionConfigInputDto {
  @ApiProperty({
    type: [ExtractionKeyInputDto],
    maxItems: ExtractionLimits.inlineKeysMax,
    description:
      'The complete list of inline keys (replaces the stored list); names unique within the list and across the sets attached to the agent',
  })
  @IsDefined({ message: 'keys is required' })
  @ExtractionKeyList(ExtractionLimits.inlineKeysMax)
  keys: ExtractionKeyInputDto[];
}

export class ExtractionConfigDto {
  @ApiProperty({ type: [ExtractionKeyDto] })
  keys: ExtractionKeyDto[];
}
