import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsIn,
  IsObject,
  IsString,
  Matches,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import { MESSAGE_BATCH_BYTES } from '@vap/messages';
import { CursorQueryDto, NextCursor } from '../pagination';
import { E164_EXAMPLE, E164_PATTERN, IfPresent, OptionalOneOf, queryE164 } from '../validation';

export const DO_NOT_CALL_ID_EXAMPLE = 'dnc_0d7f4c1f-2b11-4a8e-9a55-3f0c6a0e6d0b';

export const DO_NOT_CALL_REASONS = ['opt_out', 'complaint', 'legal', 'manual'] as const;
export type DoNotCallReason = (typeof DO_NOT_CALL_REASONS)[number];

export const DO_NOT_CALL_KINDS = ['number', 'prefix'] as const;
export type DoNotCallKind = (typeof DO_NOT_CALL_KINDS)[number];

/** A prefix: + and 1 to 14 digits, so that it covers one number at most as long as E.164 allows. */
export const DO_NOT_CALL_PREFIX_PATTERN = /^\+[1-9]\d{0,13}$/;
/**
 * '+919876' -> ['+9', '+91', '+919', '+9198', '+91987', '+919876']: every value of a do-not-call entry that
 * could cover the number (the prefixes, ending with the number itself).
 */
export function doNotCallPrefixesOf(number: string): string[] {
  const out: string[] = [];
  for (let end = 2; end <= number.length; end++) out.push(number.slice(0, end));
  return out;
}

export const DO_NOT_CALL_SOURCE_MAX = 100;
export const DO_NOT_CALL_NOTE_MAX = 500;
/** Rows of one import (JSON or CSV). */
export const DO_NOT_CALL_IMPORT_MAX_ROWS = 10_000;
/** The most data one NATS message of an import's batch or an export's page carries (JSON bytes of its rows). */
export const DO_NOT_CALL_MESSAGE_BYTES = MESSAGE_BATCH_BYTES;

const REASON_HELP =
  'opt_out (the callee asked not to be called), complaint, legal (a regulator or registry), manual';

/** reason: one of DO_NOT_CALL_REASONS (creation requires it, an update may leave it out). */
function IsDoNotCallReason(): PropertyDecorator {
  return IsIn(DO_NOT_CALL_REASONS as unknown as string[], {
    message: `reason must be one of ${DO_NOT_CALL_REASONS.join(', ')}`,
  });
}

/** source: optional, the partner's own words, at most DO_NOT_CALL_SOURCE_MAX characters. */
function SourceField(): PropertyDecorator {
  return (target, key) => {
    // Applied bottom-up, as the decorators would be if written out on the property.
    MaxLength(DO_NOT_CALL_SOURCE_MAX, {
      message: `source must be at most ${DO_NOT_CALL_SOURCE_MAX} characters`,
    })(target, key);
    IsString({ message: 'source must be a string' })(target, key);
    IfPresent()(target, key);
    ApiPropertyOptional({
      maxLength: DO_NOT_CALL_SOURCE_MAX,
      example: 'crm-sync',
      description: 'Where the entry came from, your words (api when left out on creation)',
    })(target, key);
  };
}

/** note: optional free text, null clears it. */
function NoteField(): PropertyDecorator {
  return (target, key) => {
    MaxLength(DO_NOT_CALL_NOTE_MAX, { message: `note must be at most ${DO_NOT_CALL_NOTE_MAX} characters` })(
      target,
      key,
    );
    IsString({ message: 'note must be a string or null' })(target, key);
    ValidateIf((_, v) => v !== null && v !== undefined)(target, key);
    ApiPropertyOptional({ type: String, nullable: true, maxLength: DO_NOT_CALL_NOTE_MAX })(target, key);
  };
}

export class CreateDoNotCallDto {
  @ApiPropertyOptional({
    example: E164_EXAMPLE,
    description: 'The E.164 number never to dial. Give number or prefix, not both.',
  })
  @ValidateIf((o: CreateDoNotCallDto) => o.number !== undefined || o.prefix === undefined)
  @IsDefined({ message: 'number or prefix is required' })
  @IsString()
  @Matches(E164_PATTERN, { message: 'number must be an E.164 number such as +919876543210' })
  number?: string;

  @ApiPropertyOptional({
    example: '+1900',
    description:
      'Every number starting with this: + and 1 to 14 digits (a country code, an area code, a range). Give number or prefix, not both.',
  })
  @ValidateIf((o: CreateDoNotCallDto) => o.prefix !== undefined)
  @IsString({ message: 'prefix must be a string' })
  @Matches(DO_NOT_CALL_PREFIX_PATTERN, { message: 'prefix must be + followed by 1 to 14 digits' })
  prefix?: string;

  @ApiProperty({ enum: DO_NOT_CALL_REASONS, description: REASON_HELP })
  @IsDoNotCallReason()
  reason: DoNotCallReason;

  @SourceField()
  source?: string;

  @NoteField()
  note?: string | null;
}

/** PATCH /do-not-call/{id}: what can change about an entry (its number or prefix cannot: delete and add). */
export class UpdateDoNotCallDto {
  @ApiPropertyOptional({ enum: DO_NOT_CALL_REASONS, description: REASON_HELP })
  @IfPresent()
  @IsDoNotCallReason()
  reason?: DoNotCallReason;

  @SourceField()
  source?: string;

  @NoteField()
  note?: string | null;
}

export class DoNotCallEntryDto {
  @ApiProperty({ example: DO_NOT_CALL_ID_EXAMPLE, description: 'dnc_ followed by a UUID' })
  id: string;

  @ApiProperty({ enum: DO_NOT_CALL_KINDS })
  kind: DoNotCallKind;

  @ApiProperty({
    type: String,
    nullable: true,
    example: E164_EXAMPLE,
    description: 'Set when kind is number',
  })
  number: string | null;

  @ApiProperty({ type: String, nullable: true, example: null, description: 'Set when kind is prefix' })
  prefix: string | null;

  @ApiProperty({ enum: DO_NOT_CALL_REASONS })
  reason: DoNotCallReason;

  @ApiProperty({
    example: 'api',
    description:
      'api (added through this API), import (a bulk import), call (the callee opted out during a call), or your own words',
  })
  source: string;

  @ApiProperty({ type: String, nullable: true })
  note: string | null;

  @ApiProperty({ format: 'date-time', description: 'When the number was listed' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;
}

export class ListDoNotCallQueryDto extends CursorQueryDto {
  @OptionalOneOf(DO_NOT_CALL_REASONS)
  reason?: DoNotCallReason;

  @OptionalOneOf(DO_NOT_CALL_KINDS)
  kind?: DoNotCallKind;
}

export class DoNotCallListDto {
  @ApiProperty({ type: [DoNotCallEntryDto], description: 'Newest first' })
  entries: DoNotCallEntryDto[];

  @NextCursor()
  next_cursor: string | null;
}

export class DoNotCallLookupQueryDto {
  @ApiProperty({
    example: E164_EXAMPLE,
    description:
      'The E.164 number to look up (URL-encode the + as %2B; an unencoded + read as a space is taken as +)',
  })
  @Transform(({ value }) => queryE164(value))
  @IsDefined({ message: 'number is required' })
  @IsString()
  @Matches(E164_PATTERN, { message: 'number must be an E.164 number such as +919876543210' })
  number: string;
}

export class DoNotCallLookupDto {
  @ApiProperty({ example: E164_EXAMPLE })
  number: string;

  @ApiProperty({ description: 'True when a dial to the number would be refused by the do-not-call list' })
  listed: boolean;

  @ApiProperty({
    type: [DoNotCallEntryDto],
    description:
      'The entries that cover the number: its own, and every prefix it starts with (longest first)',
  })
  matches: DoNotCallEntryDto[];
}

export class DoNotCallDeletedDto {
  @ApiProperty({ example: DO_NOT_CALL_ID_EXAMPLE })
  id: string;

  @ApiProperty({ example: true })
  deleted: true;

  @ApiProperty({ example: 'Do-not-call entry deleted; the number may be dialled again' })
  message: string;
}

/**
 * One row of a JSON import. Rows are judged one by one (see DoNotCallImportRowDto), so their fields are
 * documented here but not validated as a whole body: one bad row must not refuse the others.
 */
export class DoNotCallImportEntryDto {
  @ApiPropertyOptional({ example: E164_EXAMPLE, description: 'Give number or prefix' })
  number?: string;

  @ApiPropertyOptional({ example: '+1900' })
  prefix?: string;

  @ApiProperty({ enum: DO_NOT_CALL_REASONS })
  reason: DoNotCallReason;

  @ApiPropertyOptional({ maxLength: DO_NOT_CALL_SOURCE_MAX, description: 'Default import' })
  source?: string;

  @ApiPropertyOptional({ maxLength: DO_NOT_CALL_NOTE_MAX })
  note?: string;
}

export class DoNotCallImportDto {
  @ApiProperty({ type: [DoNotCallImportEntryDto], minItems: 1, maxItems: DO_NOT_CALL_IMPORT_MAX_ROWS })
  @IsArray({ message: 'entries must be an array' })
  @ArrayMinSize(1, { message: 'entries must hold at least one row' })
  @ArrayMaxSize(DO_NOT_CALL_IMPORT_MAX_ROWS, {
    message: `entries holds at most ${DO_NOT_CALL_IMPORT_MAX_ROWS} rows`,
  })
  @IsObject({ each: true, message: 'each entry must be an object' })
  entries: DoNotCallImportEntryDto[];
}

/**
 * calls.do_not_call.import: one batch of an import. The gateway reads the upload (JSON or CSV), judges every
 * row (judgeDoNotCallRow), and sends the valid ones, in the shape of a JSON row with their 1-based number in
 * the import, in batches of at most DO_NOT_CALL_MESSAGE_BYTES, one after the other. The reply reports the
 * batch's rows.
 */
export interface DoNotCallImportBatch {
  rows: { row: number; entry: DoNotCallImportEntryDto }[];
}

export const DO_NOT_CALL_ROW_ERRORS = [
  'missing_number',
  'number_and_prefix',
  'invalid_number',
  'invalid_prefix',
  'invalid_reason',
  'invalid_source',
  'invalid_note',
] as const;
export type DoNotCallRowError = (typeof DO_NOT_CALL_ROW_ERRORS)[number];

/**
 * One row's outcome. Kept to three small fields so that the report of a full import stays well inside one
 * message; GET /do-not-call/lookup gives a number's entry.
 */
export class DoNotCallImportRowDto {
  @ApiProperty({ description: '1-based row of the import (CSV: data rows after the header)' })
  row: number;

  @ApiProperty({
    enum: ['added', 'already_listed', 'rejected'],
    description: 'already_listed: the number or prefix was on the list before (the entry is left as it was)',
  })
  status: 'added' | 'already_listed' | 'rejected';

  @ApiProperty({
    enum: DO_NOT_CALL_ROW_ERRORS,
    nullable: true,
    description:
      'Why a row was rejected: missing_number (neither number nor prefix), number_and_prefix (both), invalid_number (not E.164), invalid_prefix, invalid_reason, invalid_source, invalid_note; null otherwise',
  })
  error: DoNotCallRowError | null;
}

export class DoNotCallImportReportDto {
  @ApiProperty()
  added: number;

  @ApiProperty()
  already_listed: number;

  @ApiProperty()
  rejected: number;

  @ApiProperty({ type: [DoNotCallImportRowDto], description: 'Every row of the import, in order' })
  rows: DoNotCallImportRowDto[];
}

/** One page of the export as the gateway asks the calls service for it (it streams the pages as CSV). */
export interface DoNotCallExportPageRequest {
  after: string | null;
  limit: number;
}

export interface DoNotCallExportPage {
  /**
   * number, prefix, reason, source, note, created_at of each entry, oldest first: at most `limit` rows and
   * DO_NOT_CALL_MESSAGE_BYTES of them (at least one row).
   */
  rows: string[][];
  /** Pass as after for the next page; null on the last. */
  after: string | null;
}

export const DO_NOT_CALL_CSV_COLUMNS = [
  'number',
  'prefix',
  'reason',
  'source',
  'note',
  'created_at',
] as const;
