import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, MaxLength, ValidateBy } from 'class-validator';
import { spokenLanguagesProblem } from '@vap/messages';
import { IfPresent } from '../validation';

/** Validates the contract's spoken_languages rules, with a message naming the broken rule. */
export function IsSpokenLanguages() {
  return ValidateBy({
    name: 'isSpokenLanguages',
    validator: {
      validate: (value: unknown) => spokenLanguagesProblem(value) === null,
      defaultMessage: (args) => spokenLanguagesProblem(args?.value) ?? 'spoken_languages is invalid',
    },
  });
}

/** An optional flag: omitted takes the default (or keeps the current value on update); null is refused. */
export function OptionalFlag(defaultValue: boolean, description: string) {
  return applyDecorators(
    ApiPropertyOptional({ type: Boolean, default: defaultValue, description }),
    IfPresent(),
    IsBoolean(),
  );
}

/** Optional text that may be null; the service stores an empty string as null. */
export function NullableText(maxLength: number, description: string) {
  return applyDecorators(
    ApiPropertyOptional({ type: String, nullable: true, maxLength, description }),
    IsOptional(),
    IsString(),
    MaxLength(maxLength),
  );
}

/** An array without repeats; the message names the repeated entry. */
export function IsDistinct() {
  const repeated = (value: unknown): number =>
    Array.isArray(value) ? value.findIndex((v, i) => value.indexOf(v) !== i) : -1;
  return ValidateBy({
    name: 'isDistinct',
    validator: {
      validate: (value: unknown) => repeated(value) < 0,
      defaultMessage: (args) =>
        `${args?.property} must not repeat an id (${args?.property}[${repeated(args?.value)}])`,
    },
  });
}
