import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { AppError } from '../errors';

/** Query of every list route: a page size and the opaque cursor of the previous page's next_cursor. */
export class CursorQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 20, description: 'Page size' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  @ApiPropertyOptional({ description: 'next_cursor from the previous page; omit for the first page' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  cursor?: string;
}

export interface Cursor {
  /** Timestamp of the last item of the previous page, to the microsecond (see cursorPage in @vap/persistence). */
  t: string;
  /** Its id, to break ties between equal timestamps. */
  id: string;
}

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

/** Decodes a cursor from a partner; a tampered or foreign one is a VALIDATION_ERROR, never a 500. */
export function decodeCursor(raw: string | undefined): Cursor | null {
  if (!raw) return null;
  try {
    const parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Partial<Cursor>;
    if (
      typeof parsed.t === 'string' &&
      typeof parsed.id === 'string' &&
      !Number.isNaN(Date.parse(parsed.t))
    ) {
      return { t: parsed.t, id: parsed.id };
    }
  } catch {
    // fall through
  }
  throw AppError.validation([{ field: 'cursor', message: 'cursor is not a valid next_cursor value' }]);
}

export const DEFAULT_PAGE_SIZE = 20;
