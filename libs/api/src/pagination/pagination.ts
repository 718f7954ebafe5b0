import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

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

/** A list page's `next_cursor`: the cursor of the following page, null on the last. */
export function NextCursor(): PropertyDecorator {
  return ApiProperty({
    type: String,
    nullable: true,
    description: 'Pass as cursor to get the next page; null on the last page',
  });
}
