import { ApiProperty, ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsDefined,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  MaxLength,
  ValidateBy,
  ValidateNested,
} from 'class-validator';
import { CursorQueryDto, NextCursor } from '../pagination';
import { IfPresent, trimString } from '../validation';

export const DictionaryLimits = {
  perAccount: 50,
  entriesMax: 500,
  nameMax: 100,
  descriptionMax: 500,
  wordMax: 64,
  aliasMax: 128,
  ipaMax: 128,
} as const;

/**
 * IPA: the Latin small letters, the IPA Extensions and Spacing Modifier Letters blocks (ɐ…ʯ, ˈ ˌ ː ʰ), the
 * combining diacritics (tie bars, nasalisation), the few Greek and Latin-1 letters IPA borrows (β θ χ æ ç ð ø œ ŋ
 * ħ), phonetic extensions (ᵻ ᵿ), clicks (ǀ ǁ ǂ ǃ), tone and intonation marks, and the separators . | ‖ ‿ and space.
 */
export const IPA_PATTERN =
  /^[a-z\u00e6\u00e7\u00f0\u00f8\u0127\u014b\u0153\u01c0-\u01c3\u0250-\u036f\u03b2\u03b8\u03c7\u1d00-\u1dbf\u2016\u203f\u2191\u2193\u2197\u2198\ua71b\ua71c .|]+$/u;

const WORD_RULE = { message: `word must be 1 to ${DictionaryLimits.wordMax} characters` };
const ALIAS_RULE = { message: `alias must be 1 to ${DictionaryLimits.aliasMax} characters` };
const IPA_LENGTH_RULE = { message: `ipa must be 1 to ${DictionaryLimits.ipaMax} characters` };

/** One word of a dictionary and how to say it. */
export class DictionaryEntryDto {
  @ApiProperty({
    minLength: 1,
    maxLength: DictionaryLimits.wordMax,
    example: 'Ravigo',
    description: 'The word as written (matched whole-word, case-insensitively); boosted in recognition',
  })
  @IsDefined({ message: 'word is required' })
  @Transform(trimString)
  @Length(1, DictionaryLimits.wordMax, WORD_RULE)
  @IsString({ message: 'word must be a string' })
  word: string;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: DictionaryLimits.aliasMax,
    example: 'ruh vee go',
    description: 'Text spoken instead of the word (SSML sub, or plain substitution)',
  })
  @IfPresent()
  @Transform(trimString)
  @Length(1, DictionaryLimits.aliasMax, ALIAS_RULE)
  @IsString({ message: 'alias must be a string' })
  alias?: string;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: DictionaryLimits.ipaMax,
    example: 'ɹəˈviːɡoʊ',
    description: 'How to say it in IPA characters (SSML phoneme, for providers that take one)',
  })
  @IfPresent()
  @Transform(trimString)
  @Matches(IPA_PATTERN, { message: 'ipa must hold IPA characters only (e.g. ɹəˈviːɡoʊ)' })
  @Length(1, DictionaryLimits.ipaMax, IPA_LENGTH_RULE)
  @IsString({ message: 'ipa must be a string' })
  ipa?: string;
}

/** The position of an entry whose word an earlier entry already has (case-insensitively), or -1. */
export function repeatedWordAt(entries: unknown): number {
  if (!Array.isArray(entries)) return -1;
  const seen = new Set<string>();
  return entries.findIndex((e) => {
    const word = (e as { word?: unknown } | null)?.word;
    if (typeof word !== 'string') return false;
    const key = word.trim().toLowerCase();
    if (seen.has(key)) return true;
    seen.add(key);
    return false;
  });
}

function HasDistinctWords() {
  return ValidateBy({
    name: 'hasDistinctWords',
    validator: {
      validate: (value: unknown) => repeatedWordAt(value) < 0,
      defaultMessage: (args) =>
        `entries[${repeatedWordAt(args?.value)}].word repeats the word of an earlier entry`,
    },
  });
}

const NAME_DOC = { minLength: 1, maxLength: DictionaryLimits.nameMax, example: 'Brand names' } as const;
const NAME_RULE = { message: `name must be 1 to ${DictionaryLimits.nameMax} characters` };
const DESCRIPTION_DOC = { type: String, nullable: true, maxLength: DictionaryLimits.descriptionMax } as const;
const DESCRIPTION_RULE = {
  message: `description must be at most ${DictionaryLimits.descriptionMax} characters`,
};
const ENTRIES_DESCRIPTION = `At most ${DictionaryLimits.entriesMax} entries, each word once (case-insensitively)`;
const ENTRIES_DOC: ApiPropertyOptions = { type: [DictionaryEntryDto], maxItems: DictionaryLimits.entriesMax };
const ENTRIES_RULE = {
  message: `entries takes at most ${DictionaryLimits.entriesMax} entries`,
};

export class CreateDictionaryDto {
  @ApiProperty(NAME_DOC)
  @IsDefined({ message: 'name is required' })
  @Transform(trimString)
  @Length(1, DictionaryLimits.nameMax, NAME_RULE)
  @IsString({ message: 'name must be a string' })
  name: string;

  @ApiPropertyOptional({ ...DESCRIPTION_DOC, description: 'Omitted or null: none' })
  @IsOptional()
  @MaxLength(DictionaryLimits.descriptionMax, DESCRIPTION_RULE)
  @IsString({ message: 'description must be a string or null' })
  description?: string | null;

  @ApiPropertyOptional({ ...ENTRIES_DOC, description: ENTRIES_DESCRIPTION, default: [] })
  @IfPresent()
  @HasDistinctWords()
  @ValidateNested({ each: true })
  @Type(() => DictionaryEntryDto)
  @IsObject({ each: true, message: 'entries must hold objects' })
  @ArrayMaxSize(DictionaryLimits.entriesMax, ENTRIES_RULE)
  @IsArray({ message: 'entries must be an array' })
  entries?: DictionaryEntryDto[];
}

/** PATCH: fields left out keep their values; entries, when sent, replace the list whole. */
export class UpdateDictionaryDto {
  @ApiPropertyOptional(NAME_DOC)
  @IfPresent()
  @Transform(trimString)
  @Length(1, DictionaryLimits.nameMax, NAME_RULE)
  @IsString({ message: 'name must be a string' })
  name?: string;

  @ApiPropertyOptional({ ...DESCRIPTION_DOC, description: 'null clears it' })
  @IsOptional()
  @MaxLength(DictionaryLimits.descriptionMax, DESCRIPTION_RULE)
  @IsString({ message: 'description must be a string or null' })
  description?: string | null;

  @ApiPropertyOptional({ ...ENTRIES_DOC, description: `${ENTRIES_DESCRIPTION}; replaces the list whole` })
  @IfPresent()
  @HasDistinctWords()
  @ValidateNested({ each: true })
  @Type(() => DictionaryEntryDto)
  @IsObject({ each: true, message: 'entries must hold objects' })
  @ArrayMaxSize(DictionaryLimits.entriesMax, ENTRIES_RULE)
  @IsArray({ message: 'entries must be an array' })
  entries?: DictionaryEntryDto[];
}

export class ListDictionariesQueryDto extends CursorQueryDto {}

/** A dictionary as lists answer it: without its entries (GET /dictionaries/{id} has them). */
export class DictionarySummaryDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty(NAME_DOC)
  name: string;

  @ApiProperty(DESCRIPTION_DOC)
  description: string | null;

  @ApiProperty({ minimum: 0, maximum: DictionaryLimits.entriesMax })
  entry_count: number;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;
}

export class DictionaryDto extends DictionarySummaryDto {
  @ApiProperty({ type: [DictionaryEntryDto] })
  entries: DictionaryEntryDto[];
}

export class DictionaryListDto {
  @ApiProperty({ type: [DictionarySummaryDto] })
  dictionaries: DictionarySummaryDto[];

  @NextCursor()
  next_cursor: string | null;
}

export class DictionaryDeletedDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'Dictionary deleted' })
  message: string;
}
